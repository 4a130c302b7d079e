import type { IDataObject } from 'n8n-workflow';

/**
 * A value read only when its item is sent (a file's bytes), so that validating every item first
 * keeps memory flat. A rule returns one; `withContent` reads it into the request.
 */
export class SentLater {
	constructor(
		readonly load: () => Promise<unknown>,
		/** What the operation may know before reading, e.g. the file's name. */
		readonly about: IDataObject = {},
	) {}
}
