import { BATCH_PATH, splitAnswers, type BatchCall } from '../../app/ipc/batch.js';
import { FIRST_READS, STATUS_SEQ_HEADER } from '../../app/ipc/channels.js';
import { nextPaint } from './paint.js';
import type { Channel, EventName, EventPayload, FleetdeckApi, FleetdeckTransport, Request, Response } from '../../app/ipc/contract.js';

/** An error returned by main: a stable code and a message without secrets. */
export class IpcCallError extends Error {
  override readonly name = 'IpcCallError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

declare global {
  interface Window {
    /** Exposed by the Electron preload: the frozen transport built from the contract. */
    fleetdeck?: FleetdeckTransport;
  }
}

/** The header carrying the browser shell's access token. */
export const TOKEN_HEADER = 'x-fleetdeck-token';

/**
 * The one decoder of main's answers, whichever transport carried them: the envelope's value, or
 * an {@link IpcCallError} with its code. Text that is not an envelope is a `protocol` error.
 */
export function decodeAnswer(text: string): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new IpcCallError('protocol', `main sent an answer that is not JSON: ${text.slice(0, 80)}`);
  }
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    if (envelope.ok === true && 'value' in envelope) return envelope.value;
    if (envelope.ok === false && 'error' in envelope) {
      const error = envelope.error as { code?: unknown; message?: unknown } | null;
      if (typeof error?.code === 'string' && typeof error.message === 'string') throw new IpcCallError(error.code, error.message);
    }
  }
  throw new IpcCallError('protocol', 'main sent an answer this window cannot read');
}

/** A failure with no answer from main (the transport itself failed), as an IpcCallError. */
function callError(err: unknown): IpcCallError {
  if (err instanceof IpcCallError) return err;
  const e = err as { code?: unknown; message?: unknown } | null;
  return new IpcCallError(typeof e?.code === 'string' ? e.code : 'internal', typeof e?.message === 'string' ? e.message : String(err));
}

/**
 * A transport that can also carry several calls in one exchange (the browser shell's batch): one
 * promise of envelope text per call, in order.
 */
export interface BatchingTransport extends FleetdeckTransport {
  callAll(calls: readonly BatchCall[]): Array<Promise<string>>;
}

/** The typed API, with `invokeAll` when its transport can batch: each answer decoded on its own. */
export interface WindowApi extends FleetdeckApi {
  invokeAll?(calls: readonly BatchCall[]): Array<Promise<unknown>>;
}

/** An envelope text as its value, or the transport's failure as an IpcCallError. */
async function decoded(text: Promise<string>): Promise<unknown> {
  let answer: string;
  try {
    answer = await text;
  } catch (err) {
    throw callError(err);
  }
  return decodeAnswer(answer);
}

/** The typed API over a transport: every answer goes through {@link decodeAnswer}. */
export function fromTransport(transport: FleetdeckTransport | BatchingTransport): WindowApi {
  return {
    invoke: <C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> => decoded(transport.call(channel, request)) as Promise<Response<C>>,
    on: <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => transport.on(event, listener as (payload: unknown) => void),
    ...('callAll' in transport ? { invokeAll: (calls: readonly BatchCall[]) => transport.callAll(calls).map(decoded) } : {}),
  };
}

/** The browser shell's access token in the page address, left there; undefined when it carries none (the Electron window, a test). */
export function shellTokenOf(win: Pick<Window, 'location'>): string | undefined {
  return new URL(win.location.href).searchParams.get('token') ?? undefined;
}

/** Removes the access token from the address bar (and so from the history entry), keeping the rest of the address. */
export function clearShellToken(win: Pick<Window, 'location' | 'history'>): void {
  const url = new URL(win.location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Takes the browser shell's access token from the page address and removes it from the address bar
 * (and so from the history entry) at once. From then on the token lives only in this page's
 * memory: never a cookie, which every other server on 127.0.0.1 would receive, and never storage.
 * Undefined when the address carries none (the Electron window, a test).
 */
export function takeShellToken(win: Pick<Window, 'location' | 'history'>): string | undefined {
  const token = shellTokenOf(win);
  if (token !== undefined) clearShellToken(win);
  return token;
}

/** How long the event stream waits before reconnecting, doubled after each failure up to the cap (ms). */
const RECONNECT_MS = { first: 1_000, max: 30_000 };

/** The browser shell's typed API: {@link httpTransport} through the one decoder. */
export function httpApi(base: URL, token: string, fetchImpl: typeof fetch = fetch.bind(globalThis)): WindowApi {
  return fromTransport(httpTransport(base, token, fetchImpl));
}

/**
 * The browser shell's transport: the same envelope text over loopback HTTP. Calls are POSTs and
 * events a streamed GET of server-sent events, both carrying the token in a header (EventSource
 * cannot set one, so the stream is read with fetch). A refused token (the shell restarted) is
 * said plainly.
 */
export function httpTransport(base: URL, token: string, fetchImpl: typeof fetch = fetch.bind(globalThis)): BatchingTransport {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  /** The open stream's cancel switch; undefined while nobody listens. */
  let stream: AbortController | undefined;
  const listening = (): boolean => [...listeners.values()].some((set) => set.size > 0);
  /**
   * Where a stream opened now replays system statuses from (its `last-event-id`): the last status
   * event this page received, or the point its latest `fleet:status` answer stood at, whichever is
   * later. Without it, a status sent between that answer and the stream's opening (~120 ms at
   * start) would not be seen until the system's next one.
   */
  let statusFrom: number | undefined;
  const statusAt = (seq: number): void => {
    if (Number.isSafeInteger(seq) && seq >= 0) statusFrom = Math.max(statusFrom ?? seq, seq);
  };
  /** `fleet:status` reads in flight: a stream opens only once they are answered, so it knows where they stood. */
  const statusReads = new Set<Promise<unknown>>();
  const readingStatus = (answer: Promise<{ text: string; seq: number }>): void => {
    const noted = answer.then((a) => {
      // A refusal is no snapshot: nothing to replay from.
      if (a.text.startsWith('{"ok":true')) statusAt(a.seq);
    });
    statusReads.add(noted);
    void noted.catch(() => undefined).then(() => statusReads.delete(noted));
  };
  const deliver = (event: string, data: string, id?: string): void => {
    if (event === 'fleet:status' && id !== undefined) statusAt(Number(id));
    const set = listeners.get(event);
    if (!set?.size) return;
    const payload: unknown = JSON.parse(data);
    for (const l of set) l(payload);
  };
  /** Whether a stream has waited for the frame painted with a status answer: the first one does, reconnects need not. */
  let waitedForPaint = false;
  const run = async (stop: AbortSignal): Promise<void> => {
    let wait = RECONNECT_MS.first;
    while (!stop.aborted) {
      try {
        // Status answers are what the window paints first: the stream (a fetch, its answer's task,
        // the shell's replay) waits until that frame is painted, having lost nothing by waiting. So
        // does a stream asked for once the answers are in, as the frame's listeners ask in its
        // mount: that frame is not painted yet.
        if (statusReads.size || (statusFrom !== undefined && !waitedForPaint)) {
          await Promise.allSettled([...statusReads]);
          await nextPaint(PAINT_WAIT_MS);
          waitedForPaint = true;
        }
        if (stop.aborted) return;
        const headers: Record<string, string> = { [TOKEN_HEADER]: token, accept: 'text/event-stream' };
        if (statusFrom !== undefined) headers['last-event-id'] = String(statusFrom);
        const res = await fetchImpl(new URL('/events', base), { headers, cache: 'no-store', signal: stop });
        // A refused token stays refused: retrying would only fill the shell's log.
        if (res.status === 401) return;
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        wait = RECONNECT_MS.first;
        await readEvents(res.body, deliver);
      } catch {
        // Connection lost (the shell stopped, a network blip) or closed by us: reconnect unless stopped.
      }
      if (stop.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RECONNECT_MS.max);
    }
  };
  /**
   * POSTs a JSON body to `path`; the answer's text and how many status events the shell had sent
   * when it began it, or the refusal as an IpcCallError.
   */
  const post = async (path: string, body: unknown): Promise<{ text: string; seq: number }> => {
    const res = await fetchImpl(new URL(path, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
      body: JSON.stringify(body),
    });
    if (res.status === 401) throw new IpcCallError('access-token', 'this page\'s access token was refused (Fleetdeck may have restarted): open the address Fleetdeck printed again');
    // The shell answers every call it dispatches 200 with an envelope; anything else was refused before.
    if (!res.ok) throw new IpcCallError('protocol', `HTTP ${res.status}: ${(await res.text().catch(() => '')).slice(0, 200)}`);
    return { text: await res.text(), seq: Number(res.headers.get(STATUS_SEQ_HEADER) ?? NaN) };
  };
  return {
    call(channel, request) {
      const answer = post(`/ipc/${channel}`, request);
      if (channel === 'fleet:status') readingStatus(answer);
      return answer.then((a) => a.text);
    },
    callAll(calls) {
      const answers = post(BATCH_PATH, calls).then(({ text, seq }) => {
        const texts = splitAnswers(text, calls.length);
        if (!texts) throw new IpcCallError('protocol', `main sent a batch answer this window cannot read: ${text.slice(0, 80)}`);
        return { texts, seq };
      });
      const status = calls.findIndex(([channel]) => channel === 'fleet:status');
      if (status >= 0) readingStatus(answers.then(({ texts, seq }) => ({ text: texts[status] as string, seq })));
      return calls.map((_, i) => answers.then(({ texts }) => texts[i] as string));
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      const l = listener;
      set.add(l);
      if (!stream) {
        stream = new AbortController();
        void run(stream.signal);
      }
      return () => {
        set.delete(l);
        // The last listener gone: close the stream rather than hold a connection nobody reads.
        if (!listening()) {
          stream?.abort();
          stream = undefined;
        }
      };
    },
  };
}

/** How long the event stream waits at most for the first frame: a page in a background tab paints no frame. */
const PAINT_WAIT_MS = 100;

/**
 * Reads a text/event-stream body until it ends, handing each event (`event:`, `data:` and `id:`
 * lines, ended by a blank line) to `deliver`; comments (`: keep-alive`) are skipped.
 */
export async function readEvents(body: ReadableStream<Uint8Array>, deliver: (event: string, data: string, id?: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    // The shell writes LF line ends only.
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('id:')) id = line.slice(3).trim();
      }
      if (data.length) deliver(event, data.join('\n'), id);
    }
  }
}

/** Fakes that throw plain errors still reject with IpcCallErrors, as the real transports do. */
function normalize(api: WindowApi): WindowApi {
  const { invokeAll } = api;
  return {
    invoke: async (channel, request) => {
      try {
        return await api.invoke(channel, request);
      } catch (err) {
        throw callError(err);
      }
    },
    on: (event, listener) => api.on(event, listener),
    ...(invokeAll ? { invokeAll: (calls: readonly BatchCall[]) => invokeAll.call(api, calls).map((p) => p.catch((err: unknown) => Promise.reject(callError(err)))) } : {}),
  };
}

let current: WindowApi | undefined;

let shellToken: string | undefined;

/**
 * Called once at start-up, before anything renders: in the browser shell, moves the access token
 * from the address bar into memory (see {@link takeShellToken}). With `{ clear: false }` the address
 * keeps it until {@link clearShellToken} (the entry sends the first reads in between, in the same
 * task: no other script runs before it is cleared, and the reads leave without waiting for
 * `history.replaceState`).
 */
export function claimShellToken(win: Window = window, { clear = true }: { clear?: boolean } = {}): void {
  if (win.fleetdeck) return;
  shellToken = (clear ? takeShellToken(win) : shellTokenOf(win)) ?? shellToken;
}

/** The API of this window: over the preload's transport in Electron, over HTTP in the browser shell. */
export function api(): FleetdeckApi {
  return windowApi();
}

function windowApi(): WindowApi {
  current ??= fromTransport(window.fleetdeck ?? httpTransport(new URL(window.location.href), shellToken ?? takeShellToken(window) ?? ''));
  return current;
}

/** Tests hand the renderer a fake (one with `invokeAll` stands for a transport that batches). */
export function setApi(fake: WindowApi): void {
  current = normalize(fake);
  early.clear();
  answered = Promise.resolve();
}

export { FIRST_READS };
export type FirstRead = (typeof FIRST_READS)[number];

/** Reads sent by {@link startFirstReads}, each handed out once by {@link firstRead}. */
const early = new Map<FirstRead, Promise<unknown>>();
/** Settles once every read {@link startFirstReads} sent has been answered or has failed. */
let answered: Promise<void> = Promise.resolve();

/**
 * Sends the first frame's fleet reads at once, from the first script, before the frame's modules
 * are loaded and evaluated: main answers them while the page is still busy with its scripts, instead
 * of after the frame has mounted (sent by the frame, at 1,000 systems they would leave only at
 * DOMContentLoaded). A failure is kept for the reader, who says it as any failed read.
 */
export function startFirstReads(): void {
  const to = windowApi();
  // Over HTTP, one request carries them all: one fetch to make, one answer to take in.
  const sent = to.invokeAll ? to.invokeAll(FIRST_READS.map((channel) => [channel, {}])) : FIRST_READS.map((channel) => to.invoke(channel, {}));
  FIRST_READS.forEach((channel, i) => {
    const read = sent[i] as Promise<unknown>;
    // Read by firstRead; until then a rejection is not an unhandled one.
    read.catch(() => undefined);
    early.set(channel, read);
  });
  answered = Promise.allSettled(sent).then(() => undefined);
}

/**
 * Resolves once every read {@link startFirstReads} sent has an answer (or has failed: the reader
 * says so), at once when none was sent: the entry mounts the frame then, so the first frame it lays
 * out and paints is the one with the fleet (renderer/main.ts). Never rejects.
 */
export function firstReadsAnswered(): Promise<void> {
  return answered;
}

/**
 * The answer of a first read: the one {@link startFirstReads} sent, once (a later read, a reload of
 * the list, asks main again), or a new call when none was sent (tests, a second load).
 */
export function firstRead<C extends FirstRead>(channel: C): Promise<Response<C>> {
  const sent = early.get(channel);
  if (sent === undefined) return api().invoke<FirstRead>(channel, {}) as Promise<Response<C>>;
  early.delete(channel);
  return sent as Promise<Response<C>>;
}
