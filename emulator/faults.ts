/** Injected faults: what a broker or the network in front of it does on a bad day, per operation. */
export const FAULT_KINDS = ['delay', 'http5xx', 'nonJson', 'drop', 'serverTimeout', 'rateLimit', 'notOk'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  id: string;
  /** An operation name, or `*` for every operation. */
  operation: string;
  kind: FaultKind;
  /** How many more matching requests it applies to. */
  remaining: number;
  delayMs: number;
  status?: number;
  message?: string;
  /** Carry the operation out first, then misbehave (the broker acted but the client never hears). */
  executed: boolean;
}

export class FaultBook {
  private faults: Fault[] = [];
  private seq = 0;

  add(spec: Omit<Fault, 'id' | 'remaining'> & { times: number }): Fault {
    const { times, ...rest } = spec;
    const fault: Fault = { ...rest, id: `f${++this.seq}`, remaining: times };
    this.faults.push(fault);
    return fault;
  }

  /** The next fault for this operation, consumed by one use. */
  take(operation: string): Fault | undefined {
    const fault = this.faults.find((f) => f.operation === operation || f.operation === '*');
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}
