// fast-check arbitraries from the JSON Schemas of an OpenAPI 3.1 document: values that mostly
// satisfy the schema (the interesting requests get past validation) and, through `mutated`,
// values that break it in the ways clients do (a field of the wrong type, a required field
// missing, an unknown field, the whole body of another type).
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** Strings are kept short: the point is shape, not volume (the size limit has its own test). */
const MAX_STRING = 60;
const MAX_ITEMS = 4;

export class SchemaArbitraries {
  private readonly cache = new Map<JsonSchema, fc.Arbitrary<unknown>>();

  constructor(private readonly document: JsonSchema) {}

  /** A value for `schema`, valid or nearly so. */
  valueOf(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
    if (!schema || depth > 6) return fc.constant(null);
    const cached = this.cache.get(schema);
    if (cached) return cached;
    const arbitrary = this.build(schema, depth);
    this.cache.set(schema, arbitrary);
    return arbitrary;
  }

  /** A value for `schema` (or a change of `example`) that is, most of the time, wrong in one place. */
  mutated(schema: JsonSchema | undefined, example?: unknown): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema ?? {});
    if (example !== undefined) {
      return fc.oneof(
        { weight: 4, arbitrary: mutateDeep(example) },
        { weight: 1, arbitrary: fc.constant(example).map((value) => (isObject(value) ? { ...value, unexpected_field: 1 } : value)) },
        { weight: 1, arbitrary: this.withoutRequiredOf(resolved, example) },
      );
    }
    return fc.oneof(
      { weight: 3, arbitrary: this.valueOf(schema).chain((value) => mutateDeep(value)) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      { weight: 1, arbitrary: this.withoutRequired(resolved) },
      { weight: 1, arbitrary: this.valueOf(schema).map((value) => (isObject(value) ? { ...value, unexpected_field: 1 } : value)) },
    );
  }

  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node: JsonSchema, segment: string) => node?.[segment], this.document);
    }
    return current;
  }

  private withoutRequiredOf(schema: JsonSchema, example: unknown): fc.Arbitrary<unknown> {
    const required: string[] = schema.required ?? [];
    if (required.length === 0 || !isObject(example)) return fc.constant(example);
    return fc.constantFrom(...required).map((key) => {
      const { [key]: _dropped, ...rest } = example;
      return rest;
    });
  }

  private withoutRequired(schema: JsonSchema): fc.Arbitrary<unknown> {
    const required: string[] = schema.required ?? [];
    if (required.length === 0) return this.valueOf(schema);
    return fc.tuple(this.valueOf(schema), fc.constantFrom(...required)).map(([value, key]) => {
      if (!isObject(value)) return value;
      const { [key]: _dropped, ...rest } = value;
      return rest;
    });
  }

  private build(raw: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: JsonSchema) => this.valueOf(s, depth + 1)));
    if (Array.isArray(schema.allOf)) return this.valueOf(schema.allOf[0], depth + 1);
    switch (schema.type) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1000, 1e9) });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(this.valueOf(schema.items, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)),
        });
      case 'object':
        return this.object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
    switch (schema.format) {
      case 'email':
        return fc.emailAddress();
      case 'uuid':
        return fc.uuid();
      case 'uri':
        return fc.webUrl();
      case 'date':
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      case 'date-time':
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    }
    if (typeof schema.pattern === 'string') {
      try {
        return fc.stringMatching(new RegExp(schema.pattern)).map((s) => s.slice(0, Math.max(maxLength, 1)));
      } catch {
        // A pattern fast-check cannot generate from: plain strings below.
      }
    }
    return fc.string({ minLength, maxLength, unit: fc.constantFrom('a', 'Z', '0', ' ', '-', '_', '.', 'é', '😀', '\n', '"', '\\', '/', '%', '\u0000') });
  }

  private object(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, JsonSchema> = schema.properties ?? {};
    const keys = Object.keys(properties);
    if (keys.length === 0) {
      const value = typeof schema.additionalProperties === 'object' ? this.valueOf(schema.additionalProperties, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const key = schema.propertyNames ? (this.string(this.resolve(schema.propertyNames)) as fc.Arbitrary<string>) : fc.string({ maxLength: 12 });
      return fc.dictionary(key, value, { maxKeys: MAX_ITEMS });
    }
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const key of keys) record[key] = this.valueOf(properties[key], depth + 1);
    return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key: string) => keys.includes(key)) });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Replaces one value somewhere inside `value` with an arbitrary JSON value. */
function mutateDeep(value: unknown): fc.Arbitrary<unknown> {
  const replacement = fc.oneof(
    fc.constantFrom(null, '', 0, -1, 1e308, true, [], {}, '0', 'null', '🙂'.repeat(3), 'a'.repeat(5000)),
    fc.jsonValue({ maxDepth: 2 }),
  );
  if (isObject(value) && Object.keys(value).length > 0) {
    return fc.tuple(fc.constantFrom(...Object.keys(value)), fc.boolean()).chain(([key, deeper]) =>
      (deeper ? mutateDeep(value[key]) : replacement).map((next) => ({ ...value, [key]: next })),
    );
  }
  if (Array.isArray(value) && value.length > 0) {
    return fc.nat(value.length - 1).chain((index) => mutateDeep(value[index]).map((next) => value.map((item, i) => (i === index ? next : item))));
  }
  return replacement;
}
