import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type {
	Field,
	FieldValues,
	NoticeField,
	Rule,
	RuleInput,
	ValueField,
} from '../fields/field-types';
import type { ApiCredentials } from '../transport/credential-values';
import type { RawResponse } from '../transport/limited-request';
import type { ResponsePath } from '../responses/envelope';
import type {
	ApiRequest,
	ApiResponse,
	ErrorHints,
	ResponseExpectation,
} from '../transport/request-types';

// The request path's own types, named here too because every operation table uses them.
export type { ApiRequest, ApiResponse, ErrorHints, ResponseExpectation, ResponsePath };
// The fields' own types, named here too for the same reason.
export type { Field, FieldValues, NoticeField, Rule, RuleInput, ValueField };

/**
 * The operation-table contract. Every operation of the action node is one `OperationDefinition` in
 * `nodes/VerificationServices/<resource>/operations/<operation>.ts`, listed by its resource's
 * `ResourceDefinition`; from them come the node's parameters (node-properties.ts),
 * the validation of each item (read-values.ts), the request (build-request.ts), the error hints
 * (errors.ts) and the README's operation reference (npm run docs).
 */

/** What an operation's hooks may use for one item. */
export interface ItemContext {
	ctx: IExecuteFunctions;
	itemIndex: number;
	values: FieldValues;
	/** The item's account (the credential as n8n resolved it for this item): secrets, never output. */
	credentials: ApiCredentials;
	/**
	 * Sends through the shared request path (admission, token, retries). A failure is a RequestFailed,
	 * which the runner turns into the item's error (item-error.ts `itemError`, with the operation's hints).
	 */
	send: (request: ApiRequest) => Promise<ApiResponse>;
	/** GET of a file the API links to, without the token (see ApiClient.download). */
	download: (url: string) => Promise<RawResponse>;
}

/** What an action does to the world, as a person reviewing an AI agent's call should read it. */
export interface ActionEffect {
	/** Lower case, completing "this tool ...": "moves money", "sends a message to a person". */
	does: string;
}

export interface OperationDefinition {
	/** The parameter value stored in workflows: never changes once released. */
	value: string;
	name: string;
	action: string;
	description: string;
	/**
	 * What an AI agent's model reads about this operation when the node is attached as a tool: what it
	 * does, which values it needs, and its cost or side effects. Default: `description`.
	 */
	toolDescription?: string;
	/**
	 * Set when the operation is an action: it changes something outside n8n or reaches a person. Absent:
	 * a read (a lookup or a check), which an AI agent or MCP client may always run. From it come the
	 * first words of the tool description, the README's table of reads and actions, and the rule that an
	 * action used as an AI tool runs only after a person approved the call (human-review.ts).
	 */
	effect?: ActionEffect;
	method: IHttpRequestMethods;
	/** Path with `{field}` placeholders, filled (URL-encoded) from the fields located in `path`. */
	path: string;
	/**
	 * True when sending the request twice has no effect beyond the first (reads, idempotent writes):
	 * only then are network errors, timeouts and 503 retried. Money and messages are never resent.
	 */
	repeatable: boolean;
	fields: Field[];
	/**
	 * A field whose value names one thing at the API (a monitoring profile's ID): a second item of one
	 * run with the same value is refused before anything is sent, its error naming the earlier item and
	 * `why`.
	 */
	oncePerRun?: { field: string; why: string };
	/** The operation's own entries of its Options collection (the request settings are added to every operation). */
	options?: ValueField[];
	/** The answer a success must be; default `{ body: 'json' }`. */
	expects?: ResponseExpectation;
	/** This operation's hints for refused requests (a "not found" means another id here than there). */
	hints?: ErrorHints;
	/**
	 * For operations that are not repeatable: where the answer names what the API did for an item (a
	 * deposit's transactionId), listed when a later item fails so that nothing is paid twice.
	 */
	receipt?: ResponsePath;
	/**
	 * A non-2xx response that is an answer rather than a failure (Check OTP's "wrong code"): it is
	 * returned like a 2xx instead of becoming an error.
	 */
	acceptsAnswer?: (statusCode: number, body: unknown) => boolean;
	/** Turns the response into output items (lists, files, conveniences); default: one item with the whole response. */
	toItems?: (
		response: ApiResponse,
		item: ItemContext,
	) => Promise<INodeExecutionData[]> | INodeExecutionData[];
	/**
	 * For an operation that needs several requests per item (paging), or a request value only the send
	 * may read (the hosted journey's customer id, from the credential): sends and returns the items.
	 */
	run?: (item: ItemContext, request: ApiRequest) => Promise<INodeExecutionData[]>;
	/**
	 * The part of one output item a model needs (counts, names, ids for a follow-up call), used when the
	 * node runs as an AI tool with Output "Simplified". Default: the fields `simplify` lists, else the
	 * item's json as is.
	 */
	toolSummary?: (json: IDataObject) => IDataObject;
	/**
	 * The answer has more than ten fields: the node offers n8n's Simplify (on by default). A list names
	 * the fields the simplified item keeps (dotted paths, each at its place in the whole answer, so
	 * expressions written for the whole answer still read them; the `receipt`, errors and warnings
	 * always kept); `true` outputs `toolSummary` instead.
	 */
	simplify?: true | ResponsePath[];
}

/**
 * One API group of the action node (parameter `resource`): its operations, in the order the editor
 * lists them, and what the group adds to the node beyond them.
 */
export interface ResourceDefinition {
	/** The parameter value stored in workflows: never changes once released. */
	value: string;
	name: string;
	description: string;
	operations: OperationDefinition[];
	/** Properties of the group beyond its operations' (a notice), shown only for this resource. */
	properties?: INodeProperties[];
}
