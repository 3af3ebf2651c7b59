/** What the views share: loading a read, asking before an action, showing a failure. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

import { describeError } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change or `reload()` is called; the last answer wins. */
export const useLoad = <T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> => {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error: describeError(error), loading: false }),
    );
    return () => {
      live = false;
    };
    // The caller names what the load depends on.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
};

/** A question before an action: what will happen, and the two answers. */
interface Ask {
  title: string;
  detail?: string;
  yes: string;
  no?: string;
  onYes: () => void | Promise<void>;
}

/** The question in the page (not a browser dialog): focus goes to "no", so Enter never confirms by accident. */
export const Confirm = ({ ask, close }: { ask: Ask; close: () => void }): VNode => {
  const noRef = useRef<HTMLButtonElement>(null);
  useEffect(() => noRef.current?.focus(), [ask]);
  const yes = () => {
    close();
    void ask.onYes();
  };
  return html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-detail">
    <p id="confirm-title" class="confirm-title">${ask.title}</p>
    ${ask.detail ? html`<p id="confirm-detail">${ask.detail}</p>` : null}
    <div class="actions">
      <button type="button" class="danger" onClick=${yes}>${ask.yes}</button>
      <button type="button" ref=${noRef} onClick=${close}>${ask.no ?? 'Cancel'}</button>
    </div>
  </div>`;
};

/** `[question, ask]`: render `question` where the question should show; `ask(...)` shows it. */
export const useConfirm = (): [VNode | null, (ask: Ask) => void] => {
  const [asking, setAsking] = useState<Ask | undefined>();
  const view = asking ? html`<${Confirm} ask=${asking} close=${() => setAsking(undefined)} />` : null;
  return [view, setAsking];
};

/** A failure the page shows (announced to screen readers), or nothing. */
export const Problem = ({ text }: { text: string | undefined }): VNode | null =>
  text ? html`<p class="problem" role="alert">${text}</p>` : null;

/** A line saying what just happened (announced politely), or nothing. */
export const Notice = ({ text }: { text: string | undefined }): VNode | null =>
  text ? html`<p class="notice" role="status">${text}</p>` : null;

export type { VNode };

/** The pages of a list the API pages with cursors: the cursors walked so far, the one to read, and the pager. */
export const useCursors = () => {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return { cursors, setCursors, cursor: cursors[cursors.length - 1] };
};

/** Previous and next page of a cursor-paged list (`next`: the page's `nextCursor`, none on the last page). */
export const Pager = ({
  label,
  cursors,
  setCursors,
  next,
}: {
  label: string;
  cursors: (string | undefined)[];
  setCursors: (cursors: (string | undefined)[]) => void;
  next: string | undefined;
}): VNode =>
  html`<nav class="pager" aria-label=${label}>
    <button type="button" disabled=${cursors.length < 2} onClick=${() => setCursors(cursors.slice(0, -1))}>
      Previous page
    </button>
    <span>Page ${cursors.length}</span>
    <button type="button" disabled=${!next} onClick=${() => setCursors([...cursors, next])}>Next page</button>
  </nav>` as VNode;
