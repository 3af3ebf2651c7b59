/**
 * The webhook's copy of the strategies it has seen, per container, by token hash (never the token): a warm alert
 * reads no strategy from DynamoDB. The copy is never the last word: every write the webhook makes is conditional on
 * the token item still holding exactly this strategy (intake.ts), and every refusal that rests on the strategy alone
 * (the allowlist's 403) reads it again first, so a token rotated or deleted, or a strategy changed, takes effect at
 * once, whatever the copy says. A token that is not found is never remembered (every unknown token is one read).
 *
 * The copy is bounded (CACHE_ENTRIES, the oldest dropped first) and lives CACHE_TTL_MS: enough for an alert a
 * minute to be read once per container in ten minutes, little enough that a deleted strategy's copy goes soon.
 */
import { sameHash } from '../base/aws/token-holders.js';
import type { StrategyStore, TokenStrategy } from './strategy-store.js';

export const CACHE_TTL_MS = 10 * 60_000;
export const CACHE_ENTRIES = 100;

export class StrategyCache {
  private readonly entries = new Map<string, { value: TokenStrategy; at: number }>();

  constructor(
    private readonly store: Pick<StrategyStore, 'byTokenHash'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The strategy of this token hash: the copy when it is fresh, else one consistent read. */
  async get(hash: string): Promise<{ value: TokenStrategy; cached: boolean } | undefined> {
    const entry = this.entries.get(hash);
    // The key matched; the copy's own hash is compared too, in constant time, as a read's is.
    if (entry && this.now() - entry.at < CACHE_TTL_MS && sameHash(entry.value.tokenHash, hash))
      return { value: entry.value, cached: true };
    const value = await this.read(hash);
    return value ? { value, cached: false } : undefined;
  }

  /** One consistent read, remembered when found; forgotten when not. */
  async read(hash: string): Promise<TokenStrategy | undefined> {
    this.entries.delete(hash);
    const value = await this.store.byTokenHash(hash);
    if (!value) return undefined;
    if (this.entries.size >= CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { value, at: this.now() });
    return value;
  }

  forget(hash: string): void {
    this.entries.delete(hash);
  }
}
