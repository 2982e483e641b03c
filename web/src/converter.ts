import { ApiError, type Conversion } from './api.js';
import type { PageContext } from './context.js';
import { noteBank } from './bank-names.js';
import { byId, codeOf, onSubmit, say } from './dom.js';

/** The converter: the API's result and rate, shown exactly as the API writes them, and the bank when one was picked. */
export function setUpConverter(context: PageContext): void {
  const form = byId('convert-form', HTMLFormElement);
  const amount = byId('convert-amount', HTMLInputElement);
  const from = byId('convert-from', HTMLInputElement);
  const to = byId('convert-to', HTMLInputElement);
  const date = byId('convert-date', HTMLInputElement);
  const output = byId('convert-output', HTMLDivElement);

  onSubmit(form, async () => {
    say(output, 'Converting…', 'busy');
    try {
      const { answer, source } = await context.rates.convert({
        from: codeOf(from),
        to: codeOf(to),
        amount: amount.value.trim(),
        date: date.value,
      });
      show(output, answer);
      noteBank(output, source);
    } catch (error) {
      say(output, error instanceof ApiError ? error.message : String(error), 'error');
    }
  });
}

function show(output: HTMLElement, answer: Conversion): void {
  output.replaceChildren();
  output.dataset.kind = 'info';
  const result = document.createElement('p');
  result.className = 'result';
  result.id = 'convert-result';
  result.dataset.result = answer.result;
  result.dataset.rate = answer.rate;
  result.dataset.date = answer.date;
  const strong = document.createElement('strong');
  strong.textContent = `${answer.result} ${answer.to}`;
  result.append(`${answer.amount} ${answer.from} = `, strong);
  const rate = document.createElement('p');
  rate.className = 'detail';
  rate.textContent = `1 ${answer.from} = ${answer.rate} ${answer.to}, at the reference rates of ${answer.date}.`;
  output.append(result, rate);
}
