import type { IBinaryKeyData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { payloadOf, valueAt } from '../../../shared/responses/envelope';
import { InsecureLink } from '../../../shared/transport/limited-request';
import { downloadError } from '../download-error';
import { baseFileName } from '../../../shared/responses/file-name';
import { isObject, responseJson } from '../../../shared/responses/json';
import type { ItemContext, OperationDefinition } from '../../../shared/operation/operation-types';
import { boolean, check, text } from '../../../shared/fields/rules';
import { pick } from '../../../shared/responses/pick';
import { ExecutionCancelled } from '../../../shared/transport/wait';

const DEFAULT_BINARY_PREFIX = 'signedDocument';

/** What the output says about each signed document (beside the response, under `signedDocumentDownloads`). */
export interface SignedDocumentDownload extends IDataObject {
	/** Position of the signature item in data.signature.content. */
	contentIndex: number;
	fileName: string;
	mimeType: string | null;
	urlValidBefore: string | null;
	downloaded: boolean;
	/** The output binary property holding the file, when downloaded. */
	binaryPropertyName: string | null;
	sizeBytes: number | null;
	/** Why the file was not downloaded. */
	warning: string | null;
}

const stringOr = (value: unknown, fallback: string | null): string | null =>
	typeof value === 'string' && value.trim() !== '' ? value : fallback;

/** The signature items, in whichever generation's shape the answer came. */
function signatureItems(response: IDataObject): unknown[] {
	const content = valueAt(response, 'signature.content');
	return Array.isArray(content) ? content : [];
}

/** The URL without its query (a pre-signed URL's query is its key) for messages. */
function shownUrl(url: string): string {
	try {
		const { origin, pathname } = new URL(url);
		return `${origin}${pathname}`;
	} catch {
		return 'an unreadable URL';
	}
}

/**
 * GET of a pre-signed URL through the request path's download (no token, https only, no redirect,
 * the deadline, the size cap, the cancel signal).
 */
async function downloadFile(
	item: ItemContext,
	url: string,
	what: string,
): Promise<{ bytes: Buffer; contentType?: string } | InsecureLink> {
	const { ctx, itemIndex } = item;
	let failure: unknown;
	const response = await item.download(url).catch((error: unknown) => {
		failure = error;
		return undefined;
	});
	if (failure instanceof InsecureLink) return failure;
	if (failure instanceof ExecutionCancelled) throw failure;
	if (response === undefined)
		throw downloadError(ctx.getNode(), { what, url: shownUrl(url), itemIndex, error: failure });
	if (response.statusCode < 200 || response.statusCode >= 300) {
		throw downloadError(ctx.getNode(), {
			what,
			url: shownUrl(url),
			itemIndex,
			statusCode: response.statusCode,
		});
	}
	const contentType = response.headers['content-type'];
	return {
		bytes: response.body,
		contentType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : undefined,
	};
}

/** Downloads every signed resource whose link is still valid; expired or missing links become warnings. */
async function downloadSignedDocuments(
	item: ItemContext,
	response: IDataObject,
	prefix: string,
): Promise<{ binary: IBinaryKeyData; downloads: SignedDocumentDownload[] }> {
	const binary: IBinaryKeyData = {};
	const downloads: SignedDocumentDownload[] = [];
	const items = signatureItems(response);
	// One file at a time: only one document's bytes are held in memory besides the stored binaries.
	for (let contentIndex = 0; contentIndex < items.length; contentIndex++) {
		const entry = items[contentIndex];
		const resource =
			isObject(entry) && isObject(entry.signedResource) ? entry.signedResource : undefined;
		if (!resource) continue; // not signed (yet)
		const url = stringOr(resource.resourceUrl, null);
		const fileName =
			baseFileName(stringOr(resource.filename, null)) ?? `${prefix}${contentIndex}.pdf`;
		const urlValidBefore = stringOr(resource.urlValidBefore, null);
		const download: SignedDocumentDownload = {
			contentIndex,
			fileName,
			mimeType: stringOr(resource.mimeType, null),
			urlValidBefore,
			downloaded: false,
			binaryPropertyName: null,
			sizeBytes: null,
			warning: null,
		};
		downloads.push(download);
		const validUntil = urlValidBefore === null ? NaN : Date.parse(urlValidBefore);
		if (url === null || !/^https?:\/\//i.test(url)) {
			download.warning = `Not downloaded: signature item ${contentIndex} has no http(s) resourceUrl.`;
			continue;
		}
		if (!Number.isNaN(validUntil) && validUntil <= Date.now()) {
			download.warning = `Not downloaded: the link of "${fileName}" expired at ${urlValidBefore}. Run Get Verification Result again to receive a fresh link.`;
			continue;
		}
		const file = await downloadFile(item, url, `signed document ${contentIndex} ("${fileName}")`);
		if (file instanceof InsecureLink) {
			download.warning = `Not downloaded: the link of "${fileName}" is not https (${file.origin}). Only https links, or links on the API's own address, are fetched.`;
			continue;
		}
		const { bytes, contentType } = file;
		const binaryPropertyName = `${prefix}${contentIndex}`;
		binary[binaryPropertyName] = await item.ctx.helpers.prepareBinaryData(
			bytes,
			fileName,
			download.mimeType ?? contentType,
		);
		Object.assign(download, { downloaded: true, binaryPropertyName, sizeBytes: bytes.length });
	}
	return { binary, downloads };
}

/**
 * What an AI agent's model reads of a session: the verdict, the person and each signature's state.
 * Never the resource URLs: a pre-signed URL's query is its key.
 */
export function verificationForModel(json: IDataObject): IDataObject {
	const data = payloadOf(json) ?? {};
	const identification = isObject(data.identification) ? data.identification : {};
	const signatures = signatureItems(json).map((entry) => {
		const signed =
			isObject(entry) && isObject(entry.signedResource) ? entry.signedResource : undefined;
		return {
			...pick(entry, ['id', 'method', 'status', 'signedAt']),
			...(signed ? { signedFile: pick(signed, ['filename', 'status', 'sizeBytes']) } : {}),
		};
	});
	const downloads = Array.isArray(json.signedDocumentDownloads)
		? (json.signedDocumentDownloads as IDataObject[])
		: [];
	return {
		...pick(data, ['isVerified', 'status', 'message', 'requestId']),
		identification: {
			...pick(identification, ['status', 'source', 'finalizedAt']),
			person: pick(identification.personData, [
				'firstName',
				'lastName',
				'birthDate',
				'nationality',
			]),
		},
		signatures,
		...(downloads.length
			? {
					signedDocumentDownloads: downloads.map((d) =>
						pick(d, ['fileName', 'downloaded', 'binaryPropertyName', 'sizeBytes', 'warning']),
					),
				}
			: {}),
	};
}

export const getVerification: OperationDefinition = {
	value: 'getVerification',
	name: 'Get Verification Result',
	action: 'Get the result of a QES onboarding session',
	description:
		'Read the identification and signature result of an onboarding session, optionally with the signed documents',
	method: 'GET',
	path: '/onboarding/getVerification/{sessionId}',
	repeatable: true,
	toolDescription:
		'Read the result of a QES (qualified electronic signature) onboarding session: whether the person is verified, the session status, the identified person and the state of each signature. Supply sessionId. Read-only.',
	toolSummary: verificationForModel,
	// The verdict and the person, at their places in the answer; the downloads with their warnings.
	simplify: [
		'status',
		'data.isVerified',
		'data.status',
		'data.message',
		'data.requestId',
		'data.identification.status',
		'data.identification.personData.firstName',
		'data.identification.personData.lastName',
		'data.identification.personData.birthDate',
		'signedDocumentDownloads',
	],
	fields: [
		{
			property: {
				displayName: 'Session ID',
				name: 'sessionId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. qes-4c1f...',
				description:
					'The ID of the onboarding session (the requestId of its session link, also sent in status pings)',
			},
			rule: text(),
			location: 'path',
		},
	],
	options: [
		{
			property: {
				displayName: 'Download Signed Documents',
				name: 'downloadSignedDocuments',
				type: 'boolean',
				default: false,
				description:
					'Whether to download every signed document of the session as binary data (while its link is valid). The list "signedDocumentDownloads" beside the result tells which binary field holds which file.',
			},
			rule: boolean(),
		},
		{
			property: {
				displayName: 'Binary Field Prefix',
				name: 'binaryPropertyPrefix',
				type: 'string',
				default: DEFAULT_BINARY_PREFIX,
				description:
					'Downloaded documents go into binary fields named this prefix plus the position of the signature item, e.g. signedDocument0 and signedDocument1',
			},
			rule: text({
				normalize: (value) => value.trim(),
				checks: [check.pattern(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ or -')],
			}),
		},
	],
	toItems: async (response, item): Promise<INodeExecutionData[]> => {
		const json = responseJson(response.body);
		if (item.values.downloadSignedDocuments !== true) return [{ json }];
		const { binary, downloads } = await downloadSignedDocuments(
			item,
			json,
			item.values.binaryPropertyPrefix as string,
		);
		return [
			{
				json: { ...json, signedDocumentDownloads: downloads },
				...(Object.keys(binary).length ? { binary } : {}),
			},
		];
	},
};
