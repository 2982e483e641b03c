/** `1 day`, `2 days`: a count with its noun in the right number, for messages and logs. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
