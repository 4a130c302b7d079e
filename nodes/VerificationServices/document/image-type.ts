/** The image formats an ID-verification API returns, recognised by their first bytes. */
const SIGNATURES: Array<{ mimeType: string; extension: string; test: (b: Buffer) => boolean }> = [
	{
		mimeType: 'image/jpeg',
		extension: 'jpg',
		test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
	},
	{
		mimeType: 'image/png',
		extension: 'png',
		test: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
	},
	{
		mimeType: 'image/gif',
		extension: 'gif',
		test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
	},
	{
		mimeType: 'image/webp',
		extension: 'webp',
		test: (b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'WEBP',
	},
	{
		mimeType: 'image/tiff',
		extension: 'tif',
		test: (b) => ['49492a00', '4d4d002a'].includes(b.subarray(0, 4).toString('hex')),
	},
	{
		mimeType: 'image/bmp',
		extension: 'bmp',
		test: (b) => b.subarray(0, 2).toString('latin1') === 'BM',
	},
	{
		mimeType: 'image/heic',
		extension: 'heic',
		test: (b) =>
			b.subarray(4, 8).toString('latin1') === 'ftyp' &&
			/^(heic|heix|mif1|msf1)$/.test(b.subarray(8, 12).toString('latin1')),
	},
	{
		mimeType: 'application/pdf',
		extension: 'pdf',
		test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
	},
];

/** Mime type and file extension from the magic bytes; unknown content is application/octet-stream (.bin). */
export function imageType(bytes: Buffer): { mimeType: string; extension: string } {
	const found = SIGNATURES.find((s) => s.test(bytes));
	return found
		? { mimeType: found.mimeType, extension: found.extension }
		: { mimeType: 'application/octet-stream', extension: 'bin' };
}
