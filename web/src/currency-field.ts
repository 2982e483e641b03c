import type { Currency } from './api.js';
import { currencyMatches } from './currency-matches.js';

/** The room kept between a suggestion list and the edge of the screen. */
const EDGE_PX = 8;

/**
 * A currency field that suggests codes with their names as one types a code or part of a name:
 * the WAI-ARIA combobox with a list popup (the input keeps focus; arrows move through the
 * suggestions, Enter or a click takes one, Escape closes them). Taking one puts its code in the field.
 */
export function setUpCurrencyField(input: HTMLInputElement, currencies: () => readonly Currency[]): void {
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
  if (!(list instanceof HTMLUListElement)) throw new Error(`#${input.id} controls no suggestion list`);
  let shown: Currency[] = [];
  let active = -1;

  const optionId = (index: number) => `${list.id}-${index}`;

  const close = () => {
    shown = [];
    active = -1;
    list.replaceChildren();
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };

  const activate = (index: number) => {
    active = index;
    for (const [i, option] of [...list.children].entries()) option.setAttribute('aria-selected', String(i === index));
    if (index < 0) input.removeAttribute('aria-activedescendant');
    else {
      input.setAttribute('aria-activedescendant', optionId(index));
      list.children[index]?.scrollIntoView({ block: 'nearest' });
    }
  };

  const open = () => {
    shown = currencyMatches(input.value, currencies());
    if (shown.length === 0) return close();
    list.replaceChildren(...shown.map((currency, index) => optionOf(currency, optionId(index))));
    list.hidden = false;
    place();
    input.setAttribute('aria-expanded', 'true');
    activate(-1);
  };

  // Under the field, moved left as far as the screen's edge needs (a field at the right of a phone).
  const place = () => {
    list.style.left = '';
    const box = list.getBoundingClientRect();
    const overflow = box.right - (document.documentElement.clientWidth - EDGE_PX);
    if (overflow > 0) list.style.left = `${-Math.min(overflow, box.left - EDGE_PX)}px`;
  };

  const take = (index: number) => {
    const currency = shown[index];
    if (currency === undefined) return;
    input.value = currency.code;
    close();
  };

  input.addEventListener('input', open);
  input.addEventListener('blur', close);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) open();
      if (shown.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      activate(active < 0 && step < 0 ? shown.length - 1 : (active + step + shown.length) % shown.length);
    } else if (event.key === 'Enter' && active >= 0) {
      // Taking a suggestion is not yet submitting the form: a second Enter does that.
      event.preventDefault();
      take(active);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  // On mousedown, before the input's blur would close the list under the pointer.
  list.addEventListener('mousedown', (event) => {
    const option = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
    if (option === null) return;
    event.preventDefault();
    take([...list.children].indexOf(option));
  });
  close();
}

function optionOf(currency: Currency, id: string): HTMLLIElement {
  const option = document.createElement('li');
  option.id = id;
  option.setAttribute('role', 'option');
  option.setAttribute('aria-selected', 'false');
  option.dataset.code = currency.code;
  const code = document.createElement('span');
  code.className = 'suggestion-code';
  code.textContent = currency.code;
  option.append(code, ` ${currency.name}`);
  return option;
}
