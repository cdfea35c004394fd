import { mount, unmount, type Component, type Snippet } from 'svelte';
import SnippetCell from './SnippetCell.svelte';

type CellProps = { snippet: Snippet<[unknown]>; row: unknown };

/**
 * A column's `cell` snippet rendered into a cell of a drawn row (VirtualTable): a cell that holds
 * controls. It stays mounted while the cell shows that column; the row it renders follows the row
 * the cell shows (`show`), so a row element handed to the next row scrolled in keeps its controls.
 * `destroy` when the cell leaves: mounted here, it is not torn down with the table by itself.
 */
export class MountedCell<T> {
  #snippet: Snippet<[T]> = $state.raw() as Snippet<[T]>;
  #row: T = $state.raw() as T;
  readonly #instance: ReturnType<typeof mount>;

  constructor(target: HTMLElement, snippet: Snippet<[T]>, row: T) {
    this.#snippet = snippet;
    this.#row = row;
    // Props read through getters, so the mounted snippet follows `show`. A generic component cannot
    // be mounted with a type argument: its props are erased here.
    const cell = this as MountedCell<unknown>;
    this.#instance = mount(SnippetCell as unknown as Component<CellProps>, {
      target,
      props: {
        get snippet() {
          return cell.#snippet;
        },
        get row() {
          return cell.#row;
        },
      },
    });
  }

  /** Shows `row` through `snippet` from now on. */
  show(snippet: Snippet<[T]>, row: T): void {
    this.#snippet = snippet;
    this.#row = row;
  }

  destroy(): void {
    void unmount(this.#instance);
  }
}
