import { agreesWithin, decimal, decimalText, roundedToPlaces } from '../../domain/money.js';
import { IngestFormatError } from '../parsed-day.js';
import { canonicalRate, showValue } from '../rate-value.js';

/**
 * A double's text (shortest or 17 significant digits) is off the decimal it stands for by at most
 * about 2·10^-16 of it; a gap over 10^-15 of it is a real digit, not float noise.
 */
const DOUBLE_DIGITS = 15;

/**
 * The figure a bank published to `places` decimals, from the text of the binary double its JSON
 * API wrote for it ("7.8245000000000005" for 7.8245): the text rounded to `places`, half up,
 * exactly. A value that is not such a rendering (more real digits than the bank publishes) is
 * refused, not rounded.
 */
export function publishedFigure(text: string, places: number, bank: string, where: () => string): string {
  const written = decimal(canonicalRate(text, where));
  const figure = roundedToPlaces(written, places);
  if (!agreesWithin(figure, written, DOUBLE_DIGITS)) {
    throw new IngestFormatError(`${where()}: rate ${showValue(text)} has more than the ${places} decimals ${bank} publishes`);
  }
  return decimalText(figure);
}
