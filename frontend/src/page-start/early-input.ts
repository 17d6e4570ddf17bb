/**
 * What the owner enters in a server-rendered page before the app has taken it over
 * (docs/performance.md, "Server-rendered owner pages"). Angular's event replay hands the early
 * `input` and `change` events to the form after hydration, but hydration has by then written the
 * form's own (server) values into the fields, so a replayed event would read the server's value
 * and the owner's typing would be lost. This keeps each field's last entered value from the
 * moment main.ts runs (fields already changed before that are found by comparing with the value
 * the page arrived with), and once the app is stable puts back any value hydration overwrote,
 * announcing it with the event the field's form control listens to.
 */
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface Entered {
  /** `value` for text-like fields and selects, `checked` for checkboxes and radio buttons. */
  value: string | boolean;
}

function isField(target: EventTarget | null): target is Field {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

function isToggle(field: Field): field is HTMLInputElement {
  return field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
}

function currentOf(field: Field): string | boolean {
  return isToggle(field) ? field.checked : field.value;
}

/** An event Angular's early event capture (the inline script of a server-rendered page) holds. */
export interface EarlyEvent {
  eventType?: string;
  targetElement?: EventTarget | null;
}

/** The events Angular's early event capture holds, of every app on the page, until the app replays them. */
export function earlyCapturedEvents(window: Window | null): EarlyEvent[] {
  const contracts = (window as (Window & { _ejsas?: Record<string, { q?: EarlyEvent[] }> }) | null)?._ejsas;
  return Object.values(contracts ?? {}).flatMap((contract) => contract.q ?? []);
}

/** The fields the owner entered something in before any of the app's code ran. */
function fieldsWithQueuedEvents(window: Window | null): Field[] {
  return earlyCapturedEvents(window)
    .filter((queued) => queued.eventType === 'input' || queued.eventType === 'change')
    .map((queued) => queued.targetElement ?? null)
    .filter(isField);
}

/**
 * Starts keeping the owner's early entries in `root`; the returned function restores those
 * hydration overwrote and stops keeping.
 */
export function keepEarlyInput(root: Document): () => void {
  const entered = new Map<Field, Entered>();
  const remember = (event: Pick<Event, 'target'>): void => {
    const field = event.target;
    if (!isField(field) || (field instanceof HTMLInputElement && field.type === 'file')) return;
    entered.set(field, { value: currentOf(field) });
    // A radio button checked unchecks its group's others: only the checked one needs restoring.
    if (isToggle(field) && field.type === 'radio' && field.checked) {
      for (const other of entered.keys())
        if (other !== field && isToggle(other) && other.type === 'radio' && other.name === field.name)
          entered.delete(other);
    }
  };
  for (const field of fieldsWithQueuedEvents(root.defaultView)) remember({ target: field });
  root.addEventListener('input', remember, true);
  root.addEventListener('change', remember, true);
  return () => {
    root.removeEventListener('input', remember, true);
    root.removeEventListener('change', remember, true);
    for (const [field, { value }] of entered) {
      if (!field.isConnected || currentOf(field) === value) continue;
      if (typeof value === 'boolean' && isToggle(field)) {
        field.checked = value;
        field.dispatchEvent(new Event('change', { bubbles: true }));
      } else if (typeof value === 'string') {
        field.value = value;
        const eventType = field instanceof HTMLSelectElement ? 'change' : 'input';
        field.dispatchEvent(new Event(eventType, { bubbles: true }));
      }
    }
  };
}
