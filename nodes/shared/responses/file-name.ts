/**
 * A file name the API gave (a Content-Disposition header, a document's `filename`) as a base name:
 * the part after the last / or \, without control characters; undefined when nothing usable is left
 * ("", "." or ".."). A later Read/Write Files node joins the name to its folder, so a name with
 * "../" or an absolute path would write outside it.
 */
export function baseFileName(name: string | null | undefined): string | undefined {
	if (typeof name !== 'string') return undefined;
	const last = name.split(/[\\/]/).pop() ?? '';
	const base = [...last]
		.filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
		.join('')
		.trim();
	return base === '' || base === '.' || base === '..' ? undefined : base;
}
