import type { Channel, FleetdeckApi, Request, Response } from '../../../../app/ipc/contract.js';
import type { fakeApi } from './fake-api.js';

export type Handlers = { [C in Channel]?: (req: Request<C>) => Response<C> | Promise<Response<C>> };

/**
 * The fake API with more channels answered (reports, sites, sessions). Every call, handled here or
 * by the fake, lands in the fake's `invocations`, in order.
 */
export function withChannels(fake: ReturnType<typeof fakeApi>, handlers: Handlers): FleetdeckApi {
  return {
    async invoke<C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> {
      const handler = handlers[channel] as ((r: Request<C>) => Response<C> | Promise<Response<C>>) | undefined;
      if (!handler) return fake.api.invoke(channel, request);
      fake.invocations.push({ channel, request });
      return handler(request);
    },
    on: (event, listener) => fake.api.on(event, listener),
  };
}

/** The requests sent on one channel, in order. */
export function sent<C extends Channel>(fake: ReturnType<typeof fakeApi>, channel: C): Request<C>[] {
  return fake.invocations.filter((i) => i.channel === channel).map((i) => i.request as Request<C>);
}

/** An error as main returns it: a code and a message. */
export function ipcError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A promise settled from outside, to hold a call in flight while a test looks at the busy state. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
