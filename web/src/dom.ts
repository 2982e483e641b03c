/** Small DOM helpers: the page's elements are looked up once, by id, and must exist. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from the page`);
  return element;
}

/** A currency code as typed: trimmed and upper-cased (the API matches codes case-insensitively anyway). */
export function codeOf(input: HTMLInputElement): string {
  return input.value.trim().toUpperCase();
}

/** Shows a message in a live region: `error` styles it as an error, and screen readers announce it. */
export function say(region: HTMLElement, text: string, kind: 'info' | 'error' | 'busy' = 'info'): void {
  region.textContent = text;
  region.dataset.kind = kind;
}

/** Runs a form's handler on submit (Enter included), with its submit button disabled meanwhile. */
export function onSubmit(form: HTMLFormElement, handler: () => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const buttons = [...form.querySelectorAll('button[type="submit"]')] as HTMLButtonElement[];
    for (const button of buttons) button.disabled = true;
    void handler().finally(() => {
      for (const button of buttons) button.disabled = false;
    });
  });
}
