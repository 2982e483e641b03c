import { ApiError } from './api.js';
import type { PageContext } from './context.js';
import { bankLabel, noteBank } from './bank-names.js';
import { byId, codeOf, onSubmit, say } from './dom.js';

/** The latest rates against a chosen base, as a table of the API's strings. */
export function setUpLatest(context: PageContext): void {
  const form = byId('latest-form', HTMLFormElement);
  const base = byId('latest-base', HTMLInputElement);
  const output = byId('latest-output', HTMLDivElement);
  const table = byId('latest-table', HTMLTableElement);
  const caption = byId('latest-caption', HTMLElement);

  onSubmit(form, async () => {
    say(output, 'Loading the latest rates…', 'busy');
    try {
      const { answer, source } = await context.rates.latest({ base: codeOf(base) });
      context.newestDays.set(source?.id ?? '', answer.date);
      const rows = Object.entries(answer.rates).map(([code, rate]) => row(code, context.currencies.get(code)?.name ?? '', rate));
      table.tBodies[0]!.replaceChildren(...rows);
      caption.textContent = `Units of each currency per 1 ${answer.base}, ${answer.date}${source === undefined ? '' : `, from ${bankLabel(source)}`}`;
      table.hidden = false;
      say(output, `${rows.length} rates against ${answer.base}, the reference rates of ${answer.date}.`);
      noteBank(output, source);
    } catch (error) {
      table.hidden = true;
      say(output, error instanceof ApiError ? error.message : String(error), 'error');
    }
  });
}

function row(code: string, name: string, rate: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = code;
  const nameCell = document.createElement('td');
  nameCell.textContent = name;
  const rateCell = document.createElement('td');
  rateCell.className = 'num';
  rateCell.textContent = rate;
  tr.append(th, nameCell, rateCell);
  return tr;
}
