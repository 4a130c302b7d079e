import type { OperationDefinition } from '../../shared/operation-types';
import { addImage } from './addImage';
import { openJourney } from './openJourney';
import { verifyAge } from './verifyAge';

export const documentOperations: OperationDefinition[] = [openJourney, addImage, verifyAge];
