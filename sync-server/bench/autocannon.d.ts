// The few parts of autocannon 9 the benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Histogram = { p50: number; p90: number; p99: number; average: number; max: number };
  export type Result = {
    latency: Histogram;
    requests: Histogram & { total: number };
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    timeout?: number;
  };
  export default function autocannon(options: Options): Promise<Result>;
}
