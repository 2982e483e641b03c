import type { Source } from './api.js';

const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** A bank as a reader knows it, with its country's name: "Narodowy Bank Polski (Poland)"; an international body has none. */
export function bankLabel(source: Source): string {
  if (source.country === null) return source.name;
  let country: string;
  try {
    country = regions.of(source.country) ?? source.country;
  } catch {
    // A code Intl does not take is still the country /sources gave: shown as it is.
    country = source.country;
  }
  return `${source.name} (${country})`;
}

/** Under an answer asked of one source, names the bank whose figures these are; the default's answers stay as they were. */
export function noteBank(output: HTMLElement, source: Source | undefined): void {
  if (source === undefined) return;
  const note = document.createElement('p');
  note.className = 'source-note';
  note.dataset.source = source.id;
  note.textContent = `Rates from ${bankLabel(source)} alone.`;
  output.append(note);
}
