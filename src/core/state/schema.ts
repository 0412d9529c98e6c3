// State schemas: JSON Schema documents whose `$id` is `<name>-v<N>`, the one shipped (reasoning-v1)
// and those a program registers with the migration from version N-1. Validation is Ajv (draft
// 2020-12), loaded and compiled only when a state write needs it, never on the checkpoint path.
import { BadInputError, UnsupportedStateError } from '../../errors/index.js';
import { reasoningV1 } from './schemas/reasoning-v1.js';
import { NAMESPACE } from './record.js';
import type { Json, Namespace } from './values.js';

export type SchemaDoc = Record<string, unknown> & { $id: string; properties: Record<string, Record<string, unknown>> };
export type StateObject = Record<string, Namespace>;
/** Version N-1's whole state (every `$ref` resolved) → version N's. */
export type Migration = (state: StateObject) => StateObject;

export interface SchemaId {
  name: string;
  version: number;
}

const ID = /^([a-z][a-z0-9_-]*?)-v(\d+)$/;

const known = new Map<string, { schema: SchemaDoc; migrate?: Migration }>([[reasoningV1.$id, { schema: reasoningV1 as unknown as SchemaDoc }]]);

export function parseSchemaId(id: unknown): SchemaId | null {
  const m = typeof id === 'string' ? ID.exec(id) : null;
  return m ? { name: m[1], version: Number(m[2]) } : null;
}

/** A JSON Schema usable as a state schema: `$id` `<name>-v<N>`, and an object of namespaces. */
export function checkSchemaDoc(doc: unknown, what: string): SchemaDoc {
  const d = doc as SchemaDoc | null;
  if (!d || typeof d !== 'object' || Array.isArray(d)) throw new BadInputError(`${what} is not a JSON object`);
  if (!parseSchemaId(d.$id)) throw new BadInputError(`${what}: $id must be <name>-v<N> (e.g. reasoning-v1), not ${JSON.stringify(d.$id)}`);
  const p = d.properties;
  if (!p || typeof p !== 'object' || Array.isArray(p) || Object.keys(p).length === 0) throw new BadInputError(`${what}: properties must name the namespaces`);
  const bad = Object.keys(p).find((n) => !NAMESPACE.test(n));
  if (bad !== undefined) throw new BadInputError(`${what}: namespace ${JSON.stringify(bad)} is not a lower-case name`);
  return d;
}

/** Make a schema (and how to migrate to it from the version before) known to this process. */
export function registerStateSchema(schema: unknown, migrate?: Migration): SchemaId {
  const doc = checkSchemaDoc(schema, 'the schema');
  const id = parseSchemaId(doc.$id)!;
  if (id.version > 1 && !migrate && !known.get(doc.$id)?.migrate) throw new BadInputError(`${doc.$id}: a schema after v1 needs its migration from v${id.version - 1}`);
  known.set(doc.$id, { schema: doc, migrate: migrate ?? known.get(doc.$id)?.migrate });
  validators.delete(doc.$id);
  return id;
}

/** A shipped or registered schema by id (`reasoning-v1`). */
export const knownSchema = (id: string) => known.get(id);

/** The newest version of `name` this process knows, or 0. */
function newestKnown(name: string): number {
  let v = 0;
  for (const id of known.keys()) {
    const p = parseSchemaId(id)!;
    if (p.name === name) v = Math.max(v, p.version);
  }
  return v;
}

/** A state in a schema newer than this process knows is refused: its meaning is unknown here. */
export function checkReadable(doc: SchemaDoc, where: string): void {
  const id = parseSchemaId(doc.$id)!;
  const newest = newestKnown(id.name);
  if (newest > 0 && id.version > newest)
    throw new UnsupportedStateError(`${where}: state schema ${doc.$id} is newer than this ctx knows (${id.name}-v${newest}); upgrade ctx, or register ${doc.$id} with its migration`);
}

type Validate = ((v: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
type AjvLike = { compile(s: unknown): Validate; getSchema(ref: string): Validate | undefined };
const validators = new Map<string, AjvLike>();

async function ajvFor(doc: SchemaDoc): Promise<AjvLike> {
  let ajv = validators.get(doc.$id);
  if (!ajv) {
    const mod = (await import('ajv/dist/2020.js')) as unknown as { default: { default?: new (o: object) => AjvLike } & (new (o: object) => AjvLike) };
    const Ajv = mod.default.default ?? mod.default;
    const made = new Ajv({ allErrors: false, strict: false });
    made.compile(doc); // adds it under its $id
    validators.set(doc.$id, (ajv = made));
  }
  return ajv;
}

/** `$.reasoning.intents[0].confidence` from a base path and Ajv's `/0/confidence`. */
function jsonPath(base: string, pointer: string): string {
  return base + pointer.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('');
}

/** Why `value` may not be `namespace.key` under the schema (the JSON path and the rule), or null. */
export async function keyViolation(doc: SchemaDoc, namespace: string, key: string, value: Json): Promise<string | null> {
  const nsSchema = Object.hasOwn(doc.properties, namespace) ? doc.properties[namespace] : undefined;
  if (!nsSchema) return `$.${namespace}: ${doc.$id} has no namespace ${namespace} (${Object.keys(doc.properties).join(', ')})`;
  const props = (nsSchema.properties ?? {}) as Record<string, unknown>;
  const ajv = await ajvFor(doc);
  let ref: string;
  if (Object.hasOwn(props, key)) ref = `${doc.$id}#/properties/${namespace}/properties/${key}`;
  else if (nsSchema.additionalProperties === false) return `$.${namespace}.${key}: ${doc.$id} has no key ${key} in ${namespace} (${Object.keys(props).join(', ')})`;
  else if (nsSchema.additionalProperties && typeof nsSchema.additionalProperties === 'object') ref = `${doc.$id}#/properties/${namespace}/additionalProperties`;
  else return null;
  const validate = ajv.getSchema(ref)!;
  if (validate(value)) return null;
  const e = validate.errors![0];
  return `${jsonPath(`$.${namespace}.${key}`, e.instancePath)} ${e.message}`;
}

/** Why a whole state may not be in the schema (after a migration), or null. */
export async function stateViolation(doc: SchemaDoc, state: StateObject): Promise<string | null> {
  const validate = (await ajvFor(doc)).getSchema(doc.$id)!;
  if (validate(state)) return null;
  const e = validate.errors![0];
  return `${jsonPath('$', e.instancePath)} ${e.message}`;
}
