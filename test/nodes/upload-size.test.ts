/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, never published: n8n's rules for node runtime code do not apply */
import { Readable } from 'node:stream';

import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { base64Check, binaryFile, MAX_UPLOAD_BYTES } from '../../nodes/shared/fields/binary-input';
import { SentLater } from '../../nodes/shared/fields/sent-later';
import { FieldError } from '../../nodes/shared/fields/field-error';
import type { RuleInput } from '../../nodes/shared/operation/operation-types';
import { actionNode, expectValidationError, useSandbox } from '../helpers/sandbox';
import { binaryData } from '../helpers/n8n';

/** Uploads are held in memory while sent, up to the concurrency window's items at once: they have a cap. */
describe('upload size cap (Add Image)', () => {
	const sandbox = useSandbox();
	const MB = 1024 * 1024;
	const image = (bytes: number, withByteCount = true): INodeExecutionData => {
		const binary: IBinaryData = binaryData(Buffer.alloc(bytes, 7), { mimeType: 'image/png', fileName: 'front.png' });
		if (!withByteCount) delete binary.bytes;
		return { json: { journeyId: 'j-1' }, binary: { data: binary } };
	};
	const addImage = async (input: INodeExecutionData[], parameters: Record<string, string> = {}, continueOnFail = false) =>
		await sandbox().run(actionNode, { resource: 'document', operation: 'addImage', journeyId: '={{ $json.journeyId }}', imageSide: 'front', ...parameters }, { input, continueOnFail });

	it.each([
		['with its byte count', true],
		['inline, without a byte count', false],
	])('a 21 MB binary (%s) is refused before anything is sent: field, cap, item', async (_how, withByteCount) => {
		const result = await addImage([image(1000), image(21 * MB, withByteCount)]);
		await expectValidationError(sandbox(), result, 1);
		expect(result.error?.message).toBe('Input Binary Field (binaryPropertyName) must name a file of at most 20 MB, got "data" of 21.0 MB (item 2)');
	});

	it('with Continue On Fail the file too large is an error item, the others are sent', async () => {
		const result = await addImage([image(21 * MB), image(1000)], {}, true);
		expect(result.items.map((i) => i.json.error ?? 'sent')).toEqual([
			'Input Binary Field (binaryPropertyName) must name a file of at most 20 MB, got "data" of 21.0 MB (item 1)',
			expect.stringMatching(/./),
		]);
		expect((await sandbox().bodies('POST /addImage')).map((b) => (b.imageData as string).length)).toEqual([Buffer.alloc(1000).toString('base64').length]);
	});

	it('pasted base64 of more than 20 MB is refused the same way', async () => {
		const result = await addImage([{ json: { journeyId: 'j-1', image: Buffer.alloc(21 * MB, 7).toString('base64') } }], {
			imageSource: 'base64',
			imageData: '={{ $json.image }}',
			imageName: 'front.png',
		});
		expect(result.error?.message).toMatch(/^Image Data \(Base64\) \(imageData\) must be at most 20 MB once decoded, got "/);
		expect(await sandbox().stats()).toMatchObject({ total: 0 });
	});
});

describe('base64 text', () => {
	it('of 15 MB decoded is checked without overflowing the stack; malformed text is still refused', () => {
		expect(base64Check.test(Buffer.alloc(15 * 1024 * 1024, 7).toString('base64'))).toBe(true);
		expect(['QUJD', 'QUI=', 'QQ=='].map(base64Check.test)).toEqual([true, true, true]);
		expect(['', 'Q', 'Q===', 'QQ=A', 'QU JD', 'QUJ-'].map(base64Check.test)).toEqual([false, false, false, false, false, false]);
	});
});

describe('a stored file of unknown size (filesystem or S3 binary mode)', () => {
	/** A context whose binary is stored by id, without a byte count: only its stream tells the size. */
	function storedFile(chunks: number, chunkBytes: number) {
		let read = 0;
		let destroyed = false;
		const stream = new Readable({
			read() {
				if (read >= chunks) {
					this.push(null);
					return;
				}
				read++;
				this.push(Buffer.alloc(chunkBytes, 1));
			},
			destroy(error, callback) {
				destroyed = true;
				callback(error);
			},
		});
		const binary: IBinaryData = { id: 'filesystem-v2:stored', data: 'filesystem-v2', mimeType: 'image/png', fileName: 'scan.png' };
		const ctx = {
			helpers: {
				assertBinaryData: () => binary,
				getBinaryStream: async () => stream,
				getBinaryDataBuffer: async () => {
					throw new Error('the whole file must not be read at once');
				},
			},
			getInputData: () => [{ json: {}, binary: { data: binary } }],
		} as unknown as IExecuteFunctions;
		return { ctx, chunksRead: () => read, destroyed: () => destroyed };
	}
	const field = (ctx: IExecuteFunctions): RuleInput => ({
		name: 'binaryPropertyName',
		ctx,
		itemIndex: 0,
		values: {},
		property: { displayName: 'Input Binary Field', name: 'binaryPropertyName', type: 'string', default: 'data' },
	});

	it('is read counting: beyond 20 MB the stream is closed and the file refused, never held whole', async () => {
		const file = storedFile(64, 1024 * 1024);
		const later = binaryFile.toWire('data', field(file.ctx)) as SentLater;
		const error = await later.load().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(FieldError);
		expect((error as Error).message).toBe('binaryPropertyName must name a file of at most 20 MB, got "data" of more than 20 MB');
		expect(file.chunksRead()).toBeLessThanOrEqual(MAX_UPLOAD_BYTES / (1024 * 1024) + 2);
		expect(file.destroyed()).toBe(true);
	});

	it('a stored file within the cap is sent whole', async () => {
		const file = storedFile(3, 1000);
		const later = binaryFile.toWire('data', field(file.ctx)) as SentLater;
		expect(await later.load()).toBe(Buffer.alloc(3000, 1).toString('base64'));
	});
});
