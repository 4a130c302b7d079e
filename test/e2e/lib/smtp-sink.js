'use strict';
// An SMTP server on loopback that accepts every message and keeps it: what n8n's Email (SMTP)
// human-review node sends, read by the test instead of a person's inbox. Plain SMTP (no TLS, no auth):
// the credential says secure: false, disableStartTls: true.
//
//   const smtp = await startSmtpSink();
//   credential smtp: { host: '127.0.0.1', port: smtp.port, secure: false, disableStartTls: true }
//   const mail = await smtp.nextMessage((m) => /Deposit/.test(m.html));   // { from, to, subject, html }
//   smtp.links(mail)  // the /webhook-waiting/ links in it, e.g. { approve, decline }
//   await smtp.close();
// n8n ignores a review link opened by a bot (isbot on the User-Agent, Node's fetch included): open it
// with REVIEWER_USER_AGENT, a browser's.

const net = require('node:net');

const REVIEWER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The body of one message, decoded (quoted-printable or base64, as nodemailer chose). */
function decode(raw) {
	const at = raw.indexOf('\r\n\r\n');
	const head = raw.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
	const header = (name) => head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
	let body = raw.slice(at + 4).replace(/^\.\./gm, '.');
	const encoding = header('content-transfer-encoding').toLowerCase();
	if (encoding === 'quoted-printable') {
		body = Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
	} else if (encoding === 'base64') {
		body = Buffer.from(body, 'base64').toString('utf8');
	}
	return { from: header('from'), to: header('to'), subject: header('subject'), html: body };
}

async function startSmtpSink() {
	const messages = [];
	const waiters = new Set();
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {});
		let buffer = '';
		let inData = false;
		const reply = (line) => socket.write(`${line}\r\n`);
		reply('220 smtp-sink ready');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('latin1');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end === -1) return;
					const message = decode(Buffer.from(buffer.slice(0, end), 'latin1').toString('utf8'));
					buffer = buffer.slice(end + 5);
					inData = false;
					messages.push(message);
					for (const w of waiters) w();
					reply('250 OK queued');
					continue;
				}
				const eol = buffer.indexOf('\r\n');
				if (eol === -1) return;
				const line = buffer.slice(0, eol);
				buffer = buffer.slice(eol + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') reply('250-smtp-sink\r\n250 8BITMIME');
				else if (verb === 'DATA') {
					inData = true;
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'QUIT') {
					reply('221 bye');
					socket.end();
				} else reply('250 OK');
			}
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		host: '127.0.0.1',
		port: server.address().port,
		/** The first message (received or still to come) that `match` accepts, not taken before. */
		async nextMessage(match = () => true, { timeoutMs = 60000 } = {}) {
			const find = () => messages.find((m) => !m.taken && match(m));
			const found =
				find() ??
				(await new Promise((resolve, reject) => {
					const timer = setTimeout(() => {
						waiters.delete(check);
						reject(new Error(`no matching e-mail within ${timeoutMs} ms (${messages.length} received)`));
					}, timeoutMs);
					const check = () => {
						const m = find();
						if (!m) return;
						clearTimeout(timer);
						waiters.delete(check);
						resolve(m);
					};
					waiters.add(check);
				}));
			found.taken = true;
			return found;
		},
		/** The resume links of a review e-mail: { approve, decline } (decline only with Approve and Disapprove). */
		links(message) {
			const urls = [...message.html.matchAll(/href="([^"]*\/webhook-waiting\/[^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
			return { approve: urls.find((u) => /[?&]approved=true/.test(u)), decline: urls.find((u) => /[?&]approved=false/.test(u)) };
		},
		async close() {
			for (const s of sockets) s.destroy();
			await new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startSmtpSink, REVIEWER_USER_AGENT };
