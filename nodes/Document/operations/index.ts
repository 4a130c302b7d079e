import type { OperationDefinition } from '../../shared/operation/operation-types';
import { addImage } from './addImage';
import { openJourney } from './openJourney';
import { startHostedJourney } from './startHostedJourney';
import { verifyAge } from './verifyAge';
import { verifyDocument } from './verifyDocument';

export const documentOperations: OperationDefinition[] = [
	openJourney,
	addImage,
	verifyAge,
	verifyDocument,
	startHostedJourney,
];
