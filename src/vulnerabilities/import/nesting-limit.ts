// How deeply the advisory inputs may nest collections (arrays / objects in
// JSON, sequences / mappings in YAML): no published format comes near it (a
// YAML advisory document nests six deep), and bounding it keeps a hostile
// file from exhausting the stack or memory of the code that walks the tree.
export const MAX_NESTING = 64;

export function tooDeep(): string {
  return `nested deeper than ${MAX_NESTING} levels`;
}
