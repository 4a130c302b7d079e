import { createHash, randomBytes } from 'crypto';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { actionNode, expectValidationError, propertyOf, resourceRun, runWithRewrittenAnswers, succeeded, useSandbox } from '../helpers/sandbox';
import { binaryData } from '../helpers/n8n';

const sandbox = useSandbox();
const runDocument = resourceRun(sandbox, 'document');

async function run(parameters: INodeParameters, input?: INodeExecutionData[], continueOnFail = false) {
	// These tests read the whole answer: Simplify (on by default) off.
	return await runDocument({ simple: false, ...parameters }, { input, continueOnFail });
}

/** Verify Document (the whole answer) with the emulator's 200 answer rewritten by `rewrite`. */
const verifyThrough = async (journeyId: string, rewrite: (verdict: IDataObject) => unknown) =>
	await runWithRewrittenAnswers(sandbox(), 'document', '/verify', rewrite, { operation: 'verifyDocument', journeyId, simple: false });

/** Opens a journey through the node itself; returns its id. */
async function openJourney(): Promise<string> {
	const items = succeeded(await run({ operation: 'openJourney' }));
	return items[0].json.journeyId as string;
}

const journey = async (journeyId: string) =>
	(await sandbox().control.get(`/journeys/${journeyId}`)).data as {
		images: Array<{ imageName: string; imageSide: string; sizeBytes: number; sha256: string; storeOnly: boolean }>;
		passThroughData: IDataObject;
	};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const png = (size: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(size)]);
const imageItem = (bytes: Buffer, fileName?: string, property = 'data', json: IDataObject = {}): INodeExecutionData => ({
	json,
	binary: { [property]: binaryData(bytes, { mimeType: 'image/png', ...(fileName ? { fileName } : {}) }) },
});

describe('Document parameters', () => {
	it('has the upcoming note in the Resource picker', () => {
		const picker = actionNode.description.properties.find((p) => p.name === 'resource')!;
		const document = picker.options!.find((o) => (o as { value: string }).value === 'document') as { description: string };
		expect(document.description).toMatch(/upcoming/i);
	});

	it('offers ageFrom and ageTo only behind the one Age Condition choice', () => {
		const verifyAge = { resource: ['document'], operation: ['verifyAge'] };
		expect(propertyOf('document', 'verifyAge', 'ageFrom').displayOptions?.show).toEqual({ ...verifyAge, ageCondition: ['atLeast'] });
		expect(propertyOf('document', 'verifyAge', 'ageTo').displayOptions?.show).toEqual({ ...verifyAge, ageCondition: ['atMost'] });
	});
});

describe('addImage', () => {
	it('reads each item from its own binary property, with imageName, storeOnly and passThroughData set', async () => {
		const journeyId = await openJourney();
		const front = png(100);
		const selfie = png(200);
		const items = succeeded(await run(
			{
				operation: 'addImage',
				journeyId,
				imageSide: '={{ $json.side }}',
				binaryPropertyName: 'photo',
				imageName: '={{ $json.name }}',
				additionalFields: { storeOnly: true, passThroughData: '={{ { page: $json.page } }}' },
			},
			[
				imageItem(front, 'scan1.png', 'photo', { side: 'front', name: 'front.png', page: 1 }),
				imageItem(selfie, 'scan2.png', 'photo', { side: 'selfie', name: 'me.png', page: 2 }),
			],
		));
		expect(await sandbox().bodies('POST /addImage')).toEqual([
			{ journeyId, imageName: 'front.png', imageSide: 'front', imageData: front.toString('base64'), storeOnly: true, passThroughData: { page: 1 } },
			{ journeyId, imageName: 'me.png', imageSide: 'selfie', imageData: selfie.toString('base64'), storeOnly: true, passThroughData: { page: 2 } },
		]);
		expect(items.map((i) => [i.json.imageName, i.pairedItem])).toEqual([
			['front.png', { item: 0 }],
			['me.png', { item: 1 }],
		]);
	});

	it('uploads a large image intact (bytes checked by the emulator hash)', async () => {
		const journeyId = await openJourney();
		const bytes = png(1_500_000);
		succeeded(await run({ operation: 'addImage', journeyId, imageSide: 'back' }, [imageItem(bytes, 'back.png')]));
		const [stored] = (await journey(journeyId)).images;
		expect(stored).toMatchObject({ imageName: 'back.png', imageSide: 'back', sizeBytes: bytes.length, sha256: sha256(bytes) });
	});

	describe('validation: nothing is sent', () => {
		const ok = imageItem(png(10), 'ok.png');
		const front = { operation: 'addImage', journeyId: 'j-1', imageSide: 'front' };

		it.each<[string, INodeParameters, INodeExecutionData[] | undefined, number, string[]]>([
			['names a missing binary property and the item', front, [ok, { json: {} }], 1, ['Input Binary Field (binaryPropertyName) must name a binary property of the input item, got "data"', 'the item has no binary data at all']],
			['lists the binary properties the item does have', { ...front, binaryPropertyName: 'image' }, [imageItem(png(10), 'a.png', 'image'), imageItem(png(10), 'b.png', 'attachment_0')], 1, ['Input Binary Field (binaryPropertyName) must name a binary property', 'got "image"', '"attachment_0"']],
			['refuses a blank binary property name', { ...front, binaryPropertyName: '  ' }, [ok], 0, ['Input Binary Field (binaryPropertyName) is required']],
			['asks for imageName when the binary has no file name', front, [ok, imageItem(png(10))], 1, ['Image Name (imageName) is required when the binary file "data" has no file name']],
			['asks for imageName with a base64 string', { ...front, imageSource: 'base64', imageData: 'aGVsbG8=' }, undefined, 0, ['Image Name (imageName) is required when the image is given as a base64 string']],
		])('%s', async (_what, parameters, input, itemIndex, parts) => {
			await expectValidationError(sandbox(), await run(parameters, input), itemIndex, ...parts);
		});
	});
});

describe('verifyAge', () => {
	it.each([
		// ageTo is left over from an earlier "At Most" choice: it must not be sent.
		['sends ageFrom only for "At Least", even when ageTo is still stored', { ageCondition: 'atLeast', ageFrom: 18, ageTo: 30 }, { ageFrom: 18 }],
		['sends neither age for "None"', { ageCondition: 'none', ageFrom: 18, additionalFields: { minDisabilityPercentage: 50 } }, { minDisabilityPercentage: 50 }],
		['defaults to "At Least 18"', {}, { ageFrom: 18 }],
	])('%s', async (_what, parameters, sent) => {
		const journeyId = await openJourney();
		const items = succeeded(await run({ operation: 'verifyAge', journeyId, ...parameters }));
		expect(await sandbox().bodies('POST /verify/age')).toEqual([{ journeyId, ...sent }]);
		expect(items).toEqual([
			{
				json: { journeyId, status: 'ageAndDisabilityVerificationComplete', ageResult: 'yes', disabilityResult: 'eligible' },
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('verifyDocument', () => {
	const jpeg = (size: number) => Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), randomBytes(size)]);

	/** A journey with the given images added through the node. */
	async function journeyWith(images: Array<[string, Buffer, string]>): Promise<string> {
		const journeyId = await openJourney();
		for (const [imageSide, bytes, fileName] of images) {
			succeeded(await run({ operation: 'addImage', journeyId, imageSide }, [imageItem(bytes, fileName)]));
		}
		return journeyId;
	}

	const binaryBytes = (item: INodeExecutionData, name: string) => Buffer.from(item.binary![name].data, 'base64');

	it('turns every cropped image into a binary property, byte for byte, and keeps the rest of the result as JSON', async () => {
		const front = jpeg(5000);
		const back = png(700);
		const selfie = png(900);
		const journeyId = await journeyWith([
			['front', front, 'id-front.jpg'],
			['back', back, 'id-back.png'],
			['selfie', selfie, 'me.png'],
		]);
		const items = succeeded(await run({ operation: 'verifyDocument', journeyId: '={{ $json.journeyId }}' }, [{ json: { journeyId } }]));
		expect(await sandbox().bodies('POST /verify')).toEqual([{ journeyId }]);
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(Object.keys(item.binary!).sort()).toEqual(['back', 'front', 'portrait', 'selfie']);
		expect(binaryBytes(item, 'portrait').equals(front)).toBe(true);
		expect(binaryBytes(item, 'front').equals(front)).toBe(true);
		expect(binaryBytes(item, 'back').equals(back)).toBe(true);
		expect(binaryBytes(item, 'selfie').equals(selfie)).toBe(true);
		expect(item.binary!.portrait).toMatchObject({ mimeType: 'image/jpeg', fileName: 'portrait.jpg', fileExtension: 'jpg' });
		expect(item.binary!.back).toMatchObject({ mimeType: 'image/png', fileName: 'back.png' });
		expect(item.json.croppedImages).toBeUndefined();
		expect(item.json.croppedImageFiles).toEqual({
			portrait: { binaryPropertyName: 'portrait', fileName: 'portrait.jpg', mimeType: 'image/jpeg', sizeBytes: front.length },
			front: { binaryPropertyName: 'front', fileName: 'front.jpg', mimeType: 'image/jpeg', sizeBytes: front.length },
			back: { binaryPropertyName: 'back', fileName: 'back.png', mimeType: 'image/png', sizeBytes: back.length },
			selfie: { binaryPropertyName: 'selfie', fileName: 'selfie.png', mimeType: 'image/png', sizeBytes: selfie.length },
		});
		expect(item.json).toMatchObject({
			journeyId,
			status: 'verificationComplete',
			identitySubject: { fullName: 'Erika Mustermann', dob: '1990/08/12', nameStructure: { firstName: 'Erika', lastName: 'Mustermann' } },
			authoritativeData: { identityDocument: { type: 'ID_CARD', idNumber: 'L01X00T47' } },
			auditTrail: { workStatus: 'PASS' },
			fraudAlerts: { fraudAlertDetail: [], aggregateFraudAlertScore: 0 },
		});
		expect(JSON.stringify(item.json)).not.toContain(front.toString('base64').slice(0, 40));
	});

	it('with "Keep Images as Base64 in JSON" the response stays as the API sent it, without binaries', async () => {
		const front = jpeg(300);
		const journeyId = await journeyWith([['front', front, 'f.jpg']]);
		const items = succeeded(await run({ operation: 'verifyDocument', journeyId, options: { keepImagesInJson: true } }));
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.croppedImageFiles).toBeUndefined();
		expect(items[0].json.croppedImages).toEqual({ portrait: front.toString('base64'), front: front.toString('base64') });
	});

	it('an image of an unknown format becomes application/octet-stream (.bin)', async () => {
		const journeyId = await journeyWith([['back', Buffer.from('plain bytes, no image header'), 'b.dat']]);
		const items = succeeded(await run({ operation: 'verifyDocument', journeyId }));
		expect(items[0].binary!.back).toMatchObject({ mimeType: 'application/octet-stream', fileName: 'back.bin' });
	});

	it('a member that is not base64 (null, a URL) stays in croppedImages untouched; a data: URL is decoded', async () => {
		const front = jpeg(64);
		const journeyId = await journeyWith([['front', front, 'f.jpg']]);
		const items = succeeded(await verifyThrough(journeyId, (verdict) => ({
			...verdict,
			croppedImages: {
				portrait: `data:image/jpeg;base64,${front.toString('base64')}`,
				signature: null,
				selfie: 'https://cdn.example/selfie.jpg',
			},
		})));
		expect(Object.keys(items[0].binary!)).toEqual(['portrait']);
		expect(Buffer.from(items[0].binary!.portrait.data, 'base64').equals(front)).toBe(true);
		expect(items[0].json.croppedImages).toEqual({ signature: null, selfie: 'https://cdn.example/selfie.jpg' });
		expect(Object.keys(items[0].json.croppedImageFiles as IDataObject)).toEqual(['portrait']);
	});

	it('a 2xx that is no verification result is an error, not an empty verdict', async () => {
		const journeyId = await journeyWith([['front', jpeg(10), 'f.jpg']]);
		const { items, error } = await verifyThrough(journeyId, () => ({ ok: true }));
		expect(items).toEqual([]);
		expect(error!.message).toBe(
			'Verify Document got an answer that is not a JSON object with journeyId or status or identitySubject (HTTP 200): application/json, starting "{"ok":true}"',
		);
	});
});

describe('API errors and Continue On Fail', () => {
	// Add Image's unknown journey: the Continue On Fail test below.
	it.each([
		['verifyAge', { ageCondition: 'atLeast', ageFrom: 18 }],
		['verifyDocument', {}],
	])('%s says to open a journey first', async (operation, extra) => {
		const result = await run({ operation, journeyId: 'no-such-journey', ...extra });
		expect(result.error).toBeInstanceOf(NodeApiError);
		const error = result.error as NodeApiError;
		expect(error.message).toMatch(/failed with HTTP 404: Journey not found/);
		expect(error.description).toContain('Open a journey first (Document Verification > Open Journey) and pass its journeyId');
		expect(error.httpCode).toBe('404');
	});

	it('with Continue On Fail keeps going past invalid items and API errors, each output paired with its input', async () => {
		const journeyId = await openJourney();
		const first = png(50);
		const last = png(60);
		const { items, error } = await run(
			{ operation: 'addImage', journeyId: '={{ $json.journeyId }}', imageSide: 'front' },
			[
				imageItem(first, 'first.png', 'data', { journeyId }),
				{ json: { journeyId } }, // no binary: refused before sending
				imageItem(png(10), 'lost.png', 'data', { journeyId: 'gone' }), // journey not found
				imageItem(last, 'last.png', 'data', { journeyId }),
			],
			true,
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json).toMatchObject({ imageName: 'first.png', stored: true });
		expect(items[1].json.error).toContain('Input Binary Field (binaryPropertyName) must name a binary property of the input item, got "data"');
		expect(items[1].json.error).toContain('(item 2)');
		expect(items[2].json).toMatchObject({ httpCode: '404' });
		expect(items[2].json.error).toContain('Journey not found');
		expect(items[2].json.description).toContain('Open a journey first');
		expect(items[3].json).toMatchObject({ imageName: 'last.png', stored: true });
		expect(await sandbox().count('POST /addImage')).toBe(3);
		expect((await journey(journeyId)).images.map((i) => i.sha256)).toEqual([sha256(first), sha256(last)]);
	});
});
