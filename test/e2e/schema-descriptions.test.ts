import { isEnumType, isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType, isSpecifiedScalarType, GraphQLSchema } from 'graphql';
import { getSchema } from '../../src/graphql/schema';

// Every type, field, argument and enum value of the schema has a description (issue 7, point 5):
// GraphiQL's docs are the reference analysts and partners read.

/** Schema coordinates (Type, Type.field, Type.field(arg:), Enum.VALUE) with no description. */
export function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const blank = (d: string | null | undefined) => !d || !d.trim();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    if (blank(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args) if (blank(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name}:)`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) if (blank(value.description)) missing.push(`${type.name}.${value.name}`);
    }
  }
  return missing.sort();
}

test('every type, field, argument and enum value of the schema has a description', async () => {
  const missing = undescribed(await getSchema());
  if (missing.length) console.log(`${missing.length} schema coordinates without a description:\n  ${missing.join('\n  ')}`);
  expect(missing).toEqual([]);
});
