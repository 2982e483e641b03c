import type { ApiClient, Source } from './api.js';
import { bankLabel } from './bank-names.js';
import { byId } from './dom.js';

const DEFAULT_CHOICE = 'Each rate from the first bank that publishes it (default)';

/** The choice of the bank every rate question is asked of (`source=ID`), or none: the first that publishes wins. */
export interface SourcePicker {
  /** Fills the choice from GET /api/v1/sources; it is shown only when more than one source is enabled. */
  load(): Promise<void>;
  /** The bank picked; undefined for the default, and while the choice is not shown. */
  picked(): Source | undefined;
}

export function setUpSourcePicker(api: ApiClient): SourcePicker {
  const panel = byId('source-panel', HTMLElement);
  const select = byId('source-select', HTMLSelectElement);
  const detail = byId('source-detail', HTMLParagraphElement);
  let offered: Source[] = [];

  const picked = () => offered.find((source) => source.id === select.value);
  const describe = () => {
    const source = picked();
    detail.textContent =
      source === undefined
        ? `Each rate comes from the first of the ${offered.length} enabled banks that publishes it that day, in the server's order.`
        : `${bankLabel(source)}: ${source.rate_type}, ${source.cadence}; ${storedDays(source)}. Every answer below is asked of its figures alone.`;
  };
  select.addEventListener('change', describe);

  return {
    picked,
    load: async () => {
      const sources = await api.get<Source[]>('sources');
      // One source has nothing to choose from: the page stays as it was.
      offered = sources.length > 1 ? sources : [];
      const kept = select.value;
      select.replaceChildren(option('', DEFAULT_CHOICE), ...offered.map((source) => option(source.id, bankLabel(source))));
      select.value = offered.some((source) => source.id === kept) ? kept : '';
      panel.hidden = offered.length === 0;
      describe();
    },
  };
}

function storedDays(source: Source): string {
  if (source.first_day === null || source.last_day === null) return 'no rates stored here yet';
  return `rates stored here from ${source.first_day} to ${source.last_day}`;
}

function option(value: string, label: string): HTMLOptionElement {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = label;
  return element;
}
