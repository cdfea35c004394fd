import type { Runtime } from '../runtime.js';

/** Where the metrics endpoint listens, and its TLS and basic-auth configuration (Prometheus exporters' web config file). */
export interface MetricsEndpointOptions {
  listen: string;
  webConfigFile?: string;
}

/** A running metrics endpoint: its URL, and how to stop it. */
export interface MetricsEndpoint {
  url: string;
  close(): Promise<void>;
}

/** Serves `/metrics` for the runtime's fleet. */
export async function startMetricsEndpoint(rt: Runtime, o: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  void rt;
  void o;
  throw new Error('metrics endpoint not available');
}
