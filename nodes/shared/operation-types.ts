import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

export interface ApiResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/**
 * What a 2xx answer must be for the operation to trust it; anything else (an HTML page, invalid
 * JSON, an empty body, `null`) is an error that says what arrived, never an empty or negative result.
 * - `json`: a JSON object or array (the default);
 * - `nothing`: documented as "200 with no body": an empty answer or any JSON object.
 * `oneOf` lists keys of which the object must carry at least one (a real result, not `{}`).
 */
export interface ResponseExpectation {
	body: 'json' | 'nothing';
	oneOf?: string[];
}

/** A request an operation wants sent; the base URL, token, retries and throttling are added later. */
export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
}

/** The validated values of one item: wire-ready field values by their API name. */
export type FieldValues = Record<string, unknown>;

/**
 * One API field as the node shows it and sends it. The parameter carries the field's exact name.
 * `toWire` is the single place that validates a value and converts it to what the API expects; it
 * throws a `FieldError` naming the rule. `hint` is the rule as the user reads it in the field.
 */
export interface FieldDefinition {
	name: string;
	/** Top-level parameter, or an entry of the operation's `additionalFields` collection. */
	placement: 'top' | 'additional';
	/** Where the value goes in the request. `none`: read and validated, but used by the operation itself. */
	location: 'body' | 'query' | 'path' | 'none';
	required: boolean;
	/** Extra display conditions on other parameters of the same operation, e.g. { method: ['sms'] }. */
	showWhen?: IDataObject;
	property: Omit<INodeProperties, 'name' | 'displayOptions' | 'required'>;
	toWire: (value: unknown) => unknown;
}

/** What an operation's handler may use for one item. */
export interface ItemContext {
	ctx: IExecuteFunctions;
	itemIndex: number;
	values: FieldValues;
	/** Sends through the shared request path (token, retries, throttling, error mapping). */
	send: (request: ApiRequest, expects?: ResponseExpectation) => Promise<ApiResponse>;
}

export interface OperationDefinition {
	/** The parameter value stored in workflows: never changes once released. */
	value: string;
	name: string;
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path with `{field}` placeholders filled, URL-encoded, from fields located in `path`. */
	path: string;
	fields: FieldDefinition[];
	/** Extra operation-specific behaviour options, shown in the operation's Options collection. */
	options?: INodeProperties[];
	/**
	 * True when sending the request twice has no effect beyond the first (reads, idempotent writes):
	 * only then are network errors before a response retried. Money and messages are never resent.
	 */
	repeatable: boolean;
	/**
	 * A non-2xx response that is an answer rather than a failure (for example "wrong code" from
	 * Check OTP): it is returned like a 2xx instead of becoming an error.
	 */
	acceptsAnswer?: (statusCode: number, body: unknown) => boolean;
	/** The answer a success must be; default `{ body: 'json' }`. */
	expects?: ResponseExpectation;
	/**
	 * For operations that are not repeatable: the value that identifies what the API did for an item
	 * (a deposit's transactionId), listed when a later item fails so that nothing is paid twice.
	 */
	receipt?: { name: string; of: (json: IDataObject) => unknown };
	/** Fields whose values are secrets (an OTP code, webhook auth headers): cut out of every error. */
	secretFields?: string[];
	/** Checks that span fields (for example "phoneNumber is required when method is sms"). */
	validate?: (values: FieldValues, item: { ctx: IExecuteFunctions; itemIndex: number }) => void;
	/** Adds to the request what fields alone cannot express (for example a nested object). */
	shapeBody?: (body: IDataObject, values: FieldValues) => IDataObject;
	/** Turns the response into output items; default: one item holding the whole response. */
	toItems?: (response: ApiResponse, item: ItemContext) => Promise<INodeExecutionData[]> | INodeExecutionData[];
	/** Replaces the single request for operations that page, upload or download. */
	run?: (item: ItemContext, request: ApiRequest) => Promise<INodeExecutionData[]>;
	/**
	 * What an AI agent's model reads about this operation when the node is attached as a tool: what it
	 * does, which values it needs, and its cost or side effects. Default: `description`.
	 */
	toolDescription?: string;
	/**
	 * The part of one output item a model needs (counts, names, ids for a follow-up call), used when the
	 * node runs as an AI tool with Tool Output "Summary". Default: the item's json as is.
	 */
	toolSummary?: (json: IDataObject) => IDataObject;
}
