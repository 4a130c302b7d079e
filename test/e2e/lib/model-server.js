'use strict';
// A scripted, OpenAI-compatible chat model for the agent e2e tests: zero dependencies, loopback only.
//
//   const model = await startModelServer({ script });
//   credential openAiApi: { apiKey: 'test', url: model.baseUrl }   // http://127.0.0.1:PORT/v1
//   ... run the agent ...
//   model.requests        // every POST /v1/chat/completions body, in arrival order
//   model.toolResults()   // every tool message the model was shown: [{ toolCallId, name, content }]
//   conversation(model, 'Screen')   // { requests, toolResults } of the conversations whose question starts so
//   await model.close();
//
// The script is a function (request body, conversation) => turn, computed from what the model was
// shown, so the server is stateless per conversation and several executions can run one after
// another. `conversation.turn` is the number of assistant messages already in the request's
// `messages` (0 = the model's first answer), `conversation.toolMessages` the tool results in it,
// newest last. A turn is
//   { toolCalls: [{ name, arguments }] }  -> an assistant message with `tool_calls`
//   { content: 'text' }                   -> a final assistant message
// Streaming (`stream: true`) is answered as server-sent chunks in OpenAI's format.

const http = require('node:http');
const crypto = require('node:crypto');

const MODEL_ID = 'test-model';

/**
 * @param {{ script: (body: object, conversation: object) => object, log?: (msg: string) => void }} options
 */
async function startModelServer({ script, log = () => {} }) {
	if (typeof script !== 'function') throw new Error('startModelServer needs a script: a function (body, conversation) => turn');
	const requests = [];

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			try {
				route(req, res, text);
			} catch (error) {
				log(`model server error: ${error.stack ?? error}`);
				send(res, 500, { error: { message: String(error.message ?? error), type: 'server_error' } });
			}
		});
	});

	function route(req, res, text) {
		const url = new URL(req.url, 'http://model.local');
		if (req.method === 'GET' && /\/models$/.test(url.pathname)) {
			send(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'e2e' }] });
			return;
		}
		if (req.method !== 'POST' || !/\/chat\/completions$/.test(url.pathname)) {
			send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'invalid_request_error' } });
			return;
		}
		let body;
		try {
			body = JSON.parse(text);
		} catch {
			send(res, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } });
			return;
		}
		requests.push({ body });
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const conversation = {
			turn: messages.filter((m) => m.role === 'assistant').length,
			userMessage: [...messages].reverse().find((m) => m.role === 'user')?.content,
			toolMessages: messages.filter((m) => m.role === 'tool').map((m) => toolMessage(m, messages)),
			offeredTools: (body.tools ?? []).map((t) => t.function?.name),
		};
		const turn = script(body, conversation);
		const message = assistantMessage(turn, conversation);
		log(`model turn ${conversation.turn}: ${message.tool_calls ? `calls ${message.tool_calls.map((c) => c.function.name).join(', ')}` : 'answers'}`);
		if (body.stream) streamCompletion(res, body, message);
		else send(res, 200, completion(body, message));
	}

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
		requests,
		/** Every tool result the model was shown, across requests, without repeats (by tool call id). */
		toolResults() {
			const seen = new Map();
			for (const r of requests) {
				const messages = r.body.messages ?? [];
				for (const m of messages.filter((x) => x.role === 'tool')) {
					const t = toolMessage(m, messages);
					if (!seen.has(t.toolCallId)) seen.set(t.toolCallId, t);
				}
			}
			return [...seen.values()];
		},
		async close() {
			server.closeAllConnections?.();
			await new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

/** A tool message with the name of the tool it answers (from the assistant message that called it). */
function toolMessage(message, messages) {
	const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === message.tool_call_id);
	const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
	return { toolCallId: message.tool_call_id, name: call?.function?.name, arguments: call?.function?.arguments, content };
}

function assistantMessage(turn, conversation) {
	if (turn.toolCalls) {
		for (const call of turn.toolCalls) {
			if (conversation.offeredTools.length && !conversation.offeredTools.includes(call.name)) {
				throw new Error(`the script calls "${call.name}", but the request offers only: ${conversation.offeredTools.join(', ')}`);
			}
		}
		return {
			role: 'assistant',
			content: turn.content ?? null,
			tool_calls: turn.toolCalls.map((call) => ({
				id: call.id ?? `call_${crypto.randomBytes(8).toString('hex')}`,
				type: 'function',
				function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
			})),
		};
	}
	return { role: 'assistant', content: String(turn.content ?? '') };
}

function completion(body, message) {
	return {
		id: `chatcmpl-${crypto.randomBytes(8).toString('hex')}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model ?? MODEL_ID,
		choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as OpenAI's server-sent chunks: role, content or tool calls, finish reason, [DONE]. */
function streamCompletion(res, body, message) {
	const base = { id: `chatcmpl-${crypto.randomBytes(8).toString('hex')}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? MODEL_ID };
	const chunk = (delta, finish = null) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
	res.write(chunk({ role: 'assistant', content: message.tool_calls ? null : '' }));
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => res.write(chunk({ tool_calls: [{ index, ...call }] })));
	} else {
		res.write(chunk({ content: message.content }));
	}
	res.write(chunk({}, message.tool_calls ? 'tool_calls' : 'stop'));
	if (body.stream_options?.include_usage) {
		res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`);
	}
	res.end('data: [DONE]\n\n');
}

function send(res, status, json) {
	const text = JSON.stringify(json);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/** The requests of the conversations whose question starts with `prefix`, and the tool results in them. */
function conversation(model, prefix) {
	const question = (r) => [...r.body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
	const requests = model.requests.filter((r) => question(r).startsWith(prefix));
	const ids = new Set(requests.flatMap((r) => r.body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)));
	return { requests, toolResults: model.toolResults().filter((t) => ids.has(t.toolCallId)) };
}

module.exports = { startModelServer, conversation };
