/** A random amount: 1 to `maxDigits` digits with 0 to 4 places, sometimes signed '+' or written '.5'. */
export function randomAmount(random: () => number, maxDigits: number): string {
  const digits = 1 + Math.floor(random() * maxDigits);
  let text = '';
  for (let i = 0; i < digits; i++) text += String(Math.floor(random() * 10));
  if (/^0+$/.test(text)) text = `${text.slice(0, -1)}7`;
  const places = Math.min(Math.floor(random() * 5), digits);
  if (places > 0) text = `${text.slice(0, digits - places)}.${text.slice(digits - places)}`;
  return random() < 0.05 ? `+${text}` : text;
}
