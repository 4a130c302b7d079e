import type { ResourceDefinition } from '../../../shared/operation/operation-types';
import { addImage } from './addImage';
import { openJourney } from './openJourney';
import { startHostedJourney } from './startHostedJourney';
import { verifyAge } from './verifyAge';
import { verifyDocument } from './verifyDocument';

export const documentResource: ResourceDefinition = {
	value: 'document',
	name: 'Document Verification',
	description:
		"Open verification journeys, add ID document images, check age and disability and verify the document, or start the provider's hosted identity journey. The API marks the step-by-step journey (Open Journey to Verify Document) as upcoming: it may not be enabled for your account yet.",
	operations: [openJourney, addImage, verifyAge, verifyDocument, startHostedJourney],
};
