import '../styles/rows.css';

/**
 * The one way the window draws a list's rows: the fleet tree's and every table's (as VS Code's list
 * view draws its rows through a renderer per row kind). `drawRows` keeps a window of row elements in
 * a list, keyed; a `RowRenderer` says how one kind of row is made and brought up to date. A row's
 * element is made once and then only changed where its row differs, so a row costs a few DOM calls,
 * with no component, block or effect per row.
 */
export interface RowRenderer<R> {
  /** The attribute that holds a row element's key (`data-id`, `data-slot`). */
  readonly keyAttr: string;
  /** A row's key: a row whose key has an element in the list keeps that element. */
  key(row: R): string;
  /** A new, empty row element. */
  make(): HTMLElement;
  /** Brings `el` up to date with `row`, changing only what differs from what it shows. */
  draw(el: HTMLElement, row: R): void;
  /** `el` leaves the list: undo what `draw` set up outside the DOM (a component mounted in a cell). */
  release?(el: HTMLElement): void;
}

/**
 * Draws `rows` into `list`, in their order: the children whose key is a wanted row's keep their
 * element, the others are released and removed first (so the rows staying are never moved), a
 * missing row's element is made, then each is drawn and placed.
 */
export function drawRows<R>(list: HTMLElement, rows: readonly R[], renderer: RowRenderer<R>): void {
  const wanted = new Set<string>();
  for (const r of rows) wanted.add(renderer.key(r));
  const kept = new Map<string, HTMLElement>();
  for (const el of [...list.children] as HTMLElement[]) {
    const k = el.getAttribute(renderer.keyAttr) ?? '';
    if (wanted.has(k) && !kept.has(k)) kept.set(k, el);
    else {
      renderer.release?.(el);
      el.remove();
    }
  }
  rows.forEach((r, i) => {
    const k = renderer.key(r);
    let el = kept.get(k);
    if (!el) {
      el = renderer.make();
      el.setAttribute(renderer.keyAttr, k);
    }
    renderer.draw(el, r);
    const at = list.children[i];
    if (at !== el) list.insertBefore(el, at ?? null);
  });
}

/** Releases and removes every row of `list`: when the list itself goes. */
export function clearRows(list: HTMLElement, renderer: RowRenderer<never>): void {
  for (const el of [...list.children] as HTMLElement[]) {
    renderer.release?.(el);
    el.remove();
  }
}

/** Sets an attribute only when it changes; `undefined` removes it. */
export function setAttr(el: Element, name: string, value: string | undefined): void {
  if (value === undefined) el.removeAttribute(name);
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Sets a class name only when it changes. */
export function setClass(el: Element, value: string): void {
  if (el.className !== value) el.className = value;
}

/** Sets a text only when it changes. */
export function setText(el: Node, value: string): void {
  if (el.textContent !== value) el.textContent = value;
}
