/**
 * A synthesized template checked against CloudFormation's published resource specification, as `@aws-cdk/aws-service-spec`
 * ships it (the registry schemas of every resource type, the database aws-cdk-lib's own L1 classes are generated
 * from): each resource's type exists, each property it sets is a property of that type (nested types too), no
 * required property is missing, and each value has the property's type where that is simple to tell (strings,
 * numbers, booleans, lists, maps, nested objects). An intrinsic function (`Ref`, `Fn::*`) stands for any value.
 * Custom resources (`Custom::*`, `AWS::CloudFormation::CustomResource`) have no schema: only their ServiceToken is
 * checked. The database loads in about a second and a half; it is loaded once per process.
 */
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { PropertyType, Resource, SpecDatabase, TypeDefinition } from '@aws-cdk/service-spec-types';

let db: SpecDatabase | undefined;
const spec = (): SpecDatabase => (db ??= loadAwsServiceSpecSync());

/** The CDK's own resource, which CloudFormation accepts without a registry schema. */
const CDK_METADATA = 'AWS::CDK::Metadata';

type Props = Record<string, unknown>;
const isObject = (v: unknown): v is Props => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `{ Ref }` or `{ Fn::* }` (and `Fn::Transform`): CloudFormation resolves it at deploy. */
const isIntrinsic = (v: unknown): boolean =>
  isObject(v) && Object.keys(v).length === 1 && /^(Ref|Fn::\w+|Condition)$/.test(Object.keys(v)[0]!);

const resources = new Map<string, Resource | undefined>();
const definitions = new Map<string, TypeDefinition>();
export const resourceType = (type: string): Resource | undefined => {
  if (!resources.has(type)) resources.set(type, spec().lookup('resource', 'cloudFormationType', 'equals', type)[0]);
  return resources.get(type);
};
const definitionOf = (id: string): TypeDefinition => {
  if (!definitions.has(id)) definitions.set(id, spec().get('typeDefinition', id));
  return definitions.get(id)!;
};

const checkValue = (value: unknown, type: PropertyType, at: string, problems: string[]): void => {
  if (isIntrinsic(value)) return;
  switch (type.type) {
    case 'string':
    case 'date-time':
      // CloudFormation takes a number or a boolean where a string is expected (it turns them into text).
      if (!['string', 'number', 'boolean'].includes(typeof value)) problems.push(`${at}: expected a string`);
      return;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' && !(typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)))
        problems.push(`${at}: expected a number, got ${JSON.stringify(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean' && value !== 'true' && value !== 'false')
        problems.push(`${at}: expected a boolean, got ${JSON.stringify(value)}`);
      return;
    case 'json':
    case 'null':
      return;
    case 'tag':
      if (!isObject(value) || !('Key' in value)) problems.push(`${at}: expected a tag {Key, Value}`);
      return;
    case 'array':
      if (!Array.isArray(value)) problems.push(`${at}: expected a list`);
      else value.forEach((item, i) => checkValue(item, type.element, `${at}[${i}]`, problems));
      return;
    case 'map':
      if (!isObject(value)) problems.push(`${at}: expected a map`);
      else for (const [k, v] of Object.entries(value)) checkValue(v, type.element, `${at}.${k}`, problems);
      return;
    case 'union': {
      // One of the alternatives must take it without a problem.
      const fits = type.types.some((alternative) => {
        const own: string[] = [];
        checkValue(value, alternative, at, own);
        return own.length === 0;
      });
      if (!fits) problems.push(`${at}: fits none of its types`);
      return;
    }
    case 'ref': {
      const definition = definitionOf(type.reference.$ref);
      if (!isObject(value)) problems.push(`${at}: expected an object (${definition.name})`);
      else checkProperties(value, definition, at, problems);
      return;
    }
    default:
      return;
  }
};

const checkProperties = (properties: Props, shape: Resource | TypeDefinition, at: string, problems: string[]): void => {
  for (const [name, value] of Object.entries(properties)) {
    const property = shape.properties[name];
    if (!property) {
      problems.push(
        `${at}.${name}: no such property of ${'cloudFormationType' in shape ? shape.cloudFormationType : shape.name}`,
      );
      continue;
    }
    // Any of its current or earlier types: CloudFormation still accepts a type a property had.
    const types = [property.type, ...(property.previousTypes ?? [])];
    const attempts = types.map((type) => {
      const own: string[] = [];
      checkValue(value, type, `${at}.${name}`, own);
      return own;
    });
    if (attempts.every((own) => own.length > 0)) problems.push(...attempts[0]!);
  }
  for (const [name, property] of Object.entries(shape.properties)) {
    if (property.required && !(name in properties)) problems.push(`${at}.${name}: required, missing`);
  }
};

/** Every problem of a template's resources against the specification; none means it would pass CloudFormation's schema checks. */
export const specProblems = (template: {
  Resources?: Record<string, { Type: string; Properties?: Props }>;
}): string[] => {
  const problems: string[] = [];
  for (const [id, resource] of Object.entries(template.Resources ?? {})) {
    if (resource.Type === CDK_METADATA) continue;
    if (resource.Type.startsWith('Custom::') || resource.Type === 'AWS::CloudFormation::CustomResource') {
      if (resource.Properties?.ServiceToken === undefined)
        problems.push(`${id}: a custom resource without ServiceToken`);
      continue;
    }
    const shape = resourceType(resource.Type);
    if (!shape) {
      problems.push(`${id}: no resource type ${resource.Type} in the specification`);
      continue;
    }
    checkProperties(resource.Properties ?? {}, shape, id, problems);
  }
  return problems;
};
