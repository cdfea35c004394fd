/**
 * One IPC call to a running browser shell, as its page makes it: POST /ipc/CHANNEL with the token
 * of the URL it printed in the header. Resolves with the answer's value.
 */
export async function shellIpc(url: string, channel: string, body: unknown): Promise<unknown> {
  const u = new URL(url);
  const res = await fetch(new URL(`/ipc/${channel}`, u), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fleetdeck-token': u.searchParams.get('token') ?? '' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { value: unknown }).value;
}
