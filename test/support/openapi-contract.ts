// Checks an HTTP answer against the OpenAPI document with a JSON Schema 2020-12 validator that is
// not ours (ajv): the status is declared for the operation, every required header is there and
// fits its schema, and the body is the declared one. Each failure names operation, status and
// field.
import { Ajv2020 } from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

interface Schema {
  $ref?: string;
  type?: string | string[];
}
interface Header {
  $ref?: string;
  required?: boolean;
  schema: Schema;
}
interface Response {
  headers?: Record<string, Header>;
  content?: Record<string, { schema: Schema }>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { headers: Record<string, Header> };
}

export interface Answer {
  method: string;
  /** Below the base URL, without the query: `/bots/bot_1`. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

const DOCUMENT_ID = 'https://pressroom.invalid/openapi.json';

export class Contract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { pattern: RegExp; item: Record<string, Operation> }[];

  constructor(private readonly document: OpenApi) {
    addFormats(this.ajv);
    // The document's other parts are not JSON Schema; $refs reach into it by JSON pointer.
    for (const keyword of ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'webhooks'])
      this.ajv.addKeyword(keyword);
    this.ajv.addKeyword('components');
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    this.routes = Object.entries(document.paths).map(([path, item]) => ({
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      item,
    }));
  }

  operationOf(method: string, path: string): Operation | undefined {
    return this.routes.find((route) => route.pattern.test(path))?.item[method.toLowerCase()];
  }

  /** What is wrong with the answer, one line per fault; empty when it keeps the contract. */
  check(answer: Answer): string[] {
    const operation = this.operationOf(answer.method, answer.path);
    if (!operation) return [`${answer.method} ${answer.path}: no such operation in the document`];
    const where = `${operation.operationId} ${answer.status}`;
    const response =
      operation.responses[String(answer.status)] ??
      operation.responses[`${String(answer.status)[0]}XX`];
    if (!response) return [`${where}: the status is not declared`];
    return [
      ...this.checkHeaders(where, response, answer),
      ...this.checkBody(where, response, answer),
    ];
  }

  /** A body the server accepted must be one the document accepts too. */
  checkAcceptedRequest(method: string, path: string, body: unknown): string[] {
    const operation = this.operationOf(method, path);
    const declared = operation?.requestBody?.content['application/json'];
    if (!operation || !declared) return [];
    return this.faults(`${operation.operationId} request`, this.compile(declared.schema), body);
  }

  /** A webhook delivery of the event `type`: its headers and body are the declared ones. */
  checkDelivery(type: string, headers: Headers, body: string): string[] {
    const operation = this.document.webhooks[type]?.post;
    if (!operation) return [`webhook ${type}: not in the document`];
    const where = operation.operationId;
    const declared = operation.requestBody?.content['application/json'];
    return [
      ...(operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'header')
        .flatMap((parameter) => this.checkHeader(where, parameter.name, parameter, headers)),
      ...(declared ? this.checkJson(`${where} body`, declared.schema, headers, body) : []),
    ];
  }

  private checkHeaders(where: string, response: Response, answer: Answer): string[] {
    return Object.entries(response.headers ?? {}).flatMap(([name, declared]) =>
      this.checkHeader(
        where,
        name,
        declared.$ref ? this.resolveHeader(declared.$ref) : declared,
        answer.headers,
      ),
    );
  }

  private checkHeader(
    where: string,
    name: string,
    header: { required?: boolean; schema: Schema },
    headers: Headers,
  ): string[] {
    const value = headers.get(name);
    if (value === null) return header.required ? [`${where}: header ${name} is missing`] : [];
    // Header values are text; an integer header is its digits.
    const typed = header.schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
    return this.faults(`${where}: header ${name}`, this.compile(header.schema), typed);
  }

  private checkBody(where: string, response: Response, answer: Answer): string[] {
    const declared = response.content?.['application/json'];
    if (!declared) return answer.text === '' ? [] : [`${where}: a body where none is declared`];
    return this.checkJson(`${where}: body`, declared.schema, answer.headers, answer.text);
  }

  private checkJson(where: string, schema: Schema, headers: Headers, text: string): string[] {
    if (!/^application\/json\b/.test(headers.get('content-type') ?? ''))
      return [`${where}: Content-Type is ${headers.get('content-type')}, not JSON`];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: not JSON`];
    }
    return this.faults(where, this.compile(schema), body);
  }

  private resolveHeader(ref: string): Header {
    const name = decodeURIComponent(ref.split('/').pop() ?? '');
    const header = this.document.components.headers[name];
    if (!header) throw new Error(`The document has no header ${ref}`);
    return header;
  }

  private compile(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = schema.$ref
        ? this.ajv.getSchema(`${DOCUMENT_ID}${schema.$ref}`)
        : this.ajv.compile(schema);
      if (!validate) throw new Error(`The document has no schema ${schema.$ref}`);
      this.validators.set(key, validate);
    }
    return validate;
  }

  private faults(where: string, validate: ValidateFunction, value: unknown): string[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${where} ${describe(error)}`);
  }
}

function describe(error: ErrorObject): string {
  const field = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '(whole)';
  const extra =
    error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${field}: ${error.message ?? error.keyword}${extra}`;
}
