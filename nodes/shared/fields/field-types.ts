import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * The fields' contract: how one parameter of an operation is shown, checked and sent. The operation
 * tables use these through operation-types.ts; the rules (rules.ts and beside it) implement `Rule`.
 */

/** The validated values of one item: wire-ready values by parameter name (options included). */
export type FieldValues = Record<string, unknown>;

/** What a rule sees of the field it checks and of the item. */
export interface RuleInput {
	/** The parameter's name, which is the API field's name. */
	name: string;
	property: INodeProperties;
	/** The values read so far for this item: the Options first, then the fields in table order. */
	values: FieldValues;
	ctx: IExecuteFunctions;
	itemIndex: number;
}

/**
 * How a field's value is checked and converted for the API (rules.ts). The one place of a field's
 * rule: its hint ends the field's description in the editor ("Must be <hint>.") and its errors name it.
 */
export interface Rule {
	/** Completes "Must be ...", e.g. "6 to 20 digits"; may read the property (min and max of a number). */
	hint?: string | ((property: INodeProperties) => string | undefined);
	/** Checks a value the user gave and returns what the API expects; throws a FieldError naming the rule. */
	toWire: (value: unknown, field: RuleInput) => unknown;
	/** The value of a field left empty; default: the field is left out (or "is required" when required). */
	whenEmpty?: (field: RuleInput) => unknown;
}

/** One parameter of an operation: how n8n shows it (a literal, so n8n's node lint checks it) and its rule. */
export interface ValueField {
	/**
	 * The parameter as n8n shows it; `name` is the API field's exact name. `displayOptions.show` holds
	 * only the conditions on other parameters of the same operation (the operation is added).
	 */
	property: INodeProperties;
	rule: Rule;
	/** Where the value goes: the body (default), the query, a `{name}` placeholder of the path, or nowhere (`none`: read by the operation itself). */
	location?: 'body' | 'query' | 'path' | 'none';
	/**
	 * The body member it is sent as when that differs from the parameter's name (binaryPropertyName
	 * sends imageData); a function of the item's values when the request form depends on them (AML's
	 * dob is sent as dateOfBirth in the request form with search constraints).
	 */
	sendAs?: string | ((values: FieldValues) => string);
	/**
	 * The body object it is sent inside: `messageTemplate` sends `{ messageTemplate: { voiceLang } }`;
	 * a dotted path nests deeper (`addons.ageVerify` sends `{ addons: { ageVerify: { ageThreshold } } }`).
	 */
	nest?: string;
	/** In the operation's "Additional Fields" collection rather than at the top level. */
	additional?: boolean;
	/** A secret (an OTP code, webhook header values): cut out of every error and message. */
	secret?: boolean;
}

/** A notice shown among the fields; it has no value. */
export interface NoticeField {
	property: INodeProperties & { type: 'notice' };
	rule?: undefined;
}

export type Field = ValueField | NoticeField;
