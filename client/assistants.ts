/**
 * The assistants' methods of the client (`client.assistants`, docs/reference/assistants.md "Assistant tokens"): an MCP
 * assistant's name, scopes and limits, and its bearer token, shown only by `create` and `rotate`.
 */
import type {
  AssistantCreated,
  AssistantDeleted,
  AssistantInput,
  AssistantList,
  AssistantRecord,
  AssistantToken,
  CallInput,
  CallOptions,
  OperationId,
  OperationResult,
  OrderOptions,
} from './types.js';

/** The client's own call of a named operation (its keys, retries, timeouts and errors). */
export type NamedCall = <Id extends OperationId>(
  operation: Id,
  input: CallInput<Id>,
  options: OrderOptions,
) => Promise<OperationResult<Id>>;

export class AssistantMethods {
  constructor(private readonly call: NamedCall) {}

  /**
   * CreateAssistant: `POST /assistants` with an Idempotency-Key (made up when absent, kept for the retries). The
   * reply's `token` is shown this once; the same key again answers the same assistant with a new token.
   */
  create(assistant: AssistantInput, options: OrderOptions = {}): Promise<AssistantCreated> {
    return this.call('CreateAssistant', { body: assistant }, options);
  }

  /** ListAssistants: `GET /assistants` (no tokens). */
  list(options: CallOptions = {}): Promise<AssistantList> {
    return this.call('ListAssistants', {}, options);
  }

  /** GetAssistant: `GET /assistants/{assistantId}` (no token). */
  get(assistantId: string, options: CallOptions = {}): Promise<AssistantRecord> {
    return this.call('GetAssistant', { path: { assistantId } }, options);
  }

  /** RotateAssistantToken: `POST /assistants/{assistantId}/token`: a new token (shown once), the old one dead. */
  rotate(assistantId: string, options: CallOptions = {}): Promise<AssistantToken> {
    return this.call('RotateAssistantToken', { path: { assistantId } }, options);
  }

  /** DeleteAssistant: `DELETE /assistants/{assistantId}`: its token stops working at once. */
  delete(assistantId: string, options: CallOptions = {}): Promise<AssistantDeleted> {
    return this.call('DeleteAssistant', { path: { assistantId } }, options);
  }
}
