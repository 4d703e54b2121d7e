// The "billion laughs": nine nested levels of aliases, a few hundred bytes that expand into 9^9 strings
// (gigabytes once read or serialised). `indent` places the anchors under a key of a larger document.
export function billionLaughs(indent = ''): string {
  const levels = 'abcdefghi'.split('');
  return levels
    .map((name, i) => {
      const items = i === 0 ? Array(9).fill('"lol"') : Array(9).fill(`*${levels[i - 1]}`);
      return `${indent}${name}: &${name} [${items.join(', ')}]`;
    })
    .join('\n');
}
