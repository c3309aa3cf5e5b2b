// Types of the public API. The component's own types, generated from the WIT by jco, are
// in generated/interfaces/*.d.ts (shipped with the package after `npm run build`).

/** Who is asking: a user, and the chat the call comes from. A bare string is a user id. */
export type Caller =
  | string
  | { user?: string; chat?: string; userId?: string; chatId?: string; user_id?: string; chat_id?: string };

export type MemoryType =
  | "preference" | "identity" | "relationship" | "knowledge"
  | "context" | "event" | "task" | "observation";

export type ArchiveReason = "superseded" | "expired" | "ephemeral_decay" | "evicted" | "deleted";

/** A stored memory, with the JSONL field names (as `ash-memory serve` answers). */
export interface MemoryRecord {
  id: string;
  content: string;
  memory_type: MemoryType;
  created_at: string;
  observed_at: string | null;
  owner_user_id: string | null;
  chat_id: string | null;
  subject_person_ids: string[];
  source: string;
  expires_at: string | null;
  superseded_at: string | null;
  superseded_by_id: string | null;
  embedded: boolean;
  archived_at: string | null;
  archive_reason: ArchiveReason | null;
}

/** A search hit: the memory plus its fused score, cosine similarity and subjects' names. */
export interface SearchHit extends MemoryRecord {
  score: number;
  similarity: number | null;
  subjects: string[];
}

export interface SearchResults { hits: SearchHit[]; notices: string[] }

export interface Added {
  memories: MemoryRecord[];
  superseded: { memory: MemoryRecord; superseded_by_id: string }[];
  evicted: MemoryRecord[];
}

export interface Person {
  id: string;
  name: string;
  relation: string | null;
  aliases: string[];
  created_at: string;
  updated_at: string | null;
  relationships: { person_id: string; relation: string }[];
}

export interface ContextBlock {
  people: Person[];
  memories: SearchHit[];
  markdown: string;
  estimated_tokens: number;
  dropped: number;
}

export interface GcReport {
  dry_run: boolean;
  archived: { id: string; content: string; archive_reason: ArchiveReason }[];
  counts: Partial<Record<ArchiveReason, number>>;
}

export interface NewMemory {
  content: string;
  memoryType?: MemoryType;
  expiresInDays?: number;
  subjects?: string[];
  shared?: boolean;
  source?: string;
  observedAt?: string;
}

export interface ListOptions {
  limit?: number;
  memoryType?: MemoryType;
  includeExpired?: boolean;
  includeSuperseded?: boolean;
}

export interface SearchQuery { query: string; limit?: number; about?: string }

export interface NewPerson { name: string; relation?: string; aliases?: string[] }

/** An embedder of your own (the `embedder` import). */
export interface Embedder {
  embed(texts: string[]): Float32Array[];
  modelId(): string;
  dimension(): number;
  supersessionThreshold?(): number;
  /** Whether it waits on a network: the home's lock is then released meanwhile. */
  isRemote(): boolean;
  close?(): void;
}

/** A language model of your own (the `llm` import). */
export interface Llm {
  complete(request: { system: string; prompt: string; maxTokens: number }): string;
  isRemote(): boolean;
  close?(): void;
}

export interface OpenOptions {
  /** The home folder; default `$ASH_HOME`, else `~/.ash`. */
  home?: string;
  /** Fixes the clock (RFC 3339 or a Date); default the system clock. */
  now?: string | Date;
  /** Where new ids come from: random v4 UUIDs (default), sequential test ids, or a function. */
  ids?: "random" | "sequential" | (() => string);
  /** Log to stderr from this level (true: info), or to a function; quiet by default. */
  log?: boolean | "debug" | "info" | "warn" | "error" | ((level: string, message: string) => void);
  embedder?: Embedder;
  llm?: Llm;
  /** Skips `[memory] auto_gc` for this open. */
  skipAutoGc?: boolean;
}

/** A memory home opened through the policy component: made by `openMemory`. */
export declare class Memory {
  readonly homePath: string;
  setNow(now?: string | Date): void;
  add(caller: Caller, item: NewMemory | string): Promise<Added>;
  addBatch(caller: Caller, items: (NewMemory | string)[]): Promise<Added>;
  get(caller: Caller, id: string): Promise<MemoryRecord>;
  list(caller: Caller, options?: ListOptions): Promise<MemoryRecord[]>;
  history(caller: Caller, id: string): Promise<MemoryRecord[]>;
  delete(caller: Caller, id: string): Promise<string>;
  search(caller: Caller, query: SearchQuery | string): Promise<SearchResults>;
  context(caller: Caller, request: { message: string; maxTokens?: number } | string): Promise<ContextBlock>;
  people: {
    list(caller: Caller): Promise<Person[]>;
    show(caller: Caller, reference: string): Promise<Person>;
    add(caller: Caller, person: NewPerson | string): Promise<Person>;
    alias(caller: Caller, reference: string, alias: string): Promise<Person>;
    merge(caller: Caller, keep: string, merge: string): Promise<Person>;
  };
  tools: {
    schemas(): Promise<unknown>;
    call(caller: Caller, name: string, args: unknown): Promise<string>;
  };
  gc(options?: { dryRun?: boolean }): Promise<GcReport>;
  compact(options?: { olderThanDays?: number; force?: boolean }): Promise<{ removed: string[]; kept: number; forced: boolean }>;
  rebuildIndex(): Promise<{ indexed: number; embedded: number; pending: number; quarantined: number }>;
  doctor(options?: { fix?: boolean }): Promise<{ check: string; ok: boolean; detail: string; fixed: boolean }[]>;
  close(): void;
}

export declare function openMemory(options?: OpenOptions): Promise<Memory>;
/** The sha256 (hex) of the policy component this package ships. */
export declare function componentSha256(): string;
/** The path of the policy component file this package ships. */
export declare function componentPath(): string;
/** An id source counting `00000000-0000-4000-8000-000000000001`, `...0002`, ... */
export declare function sequentialIds(): () => string;

export type ErrorKind =
  | "invalid_input" | "secret_refused" | "memory_not_found" | "ambiguous_id" | "person_not_found"
  | "unauthorized" | "unknown_tool" | "storage" | "index" | "busy" | "sandbox" | "config" | "io" | "internal";

export declare class MemoryError extends Error { readonly kind: ErrorKind }
export declare class InvalidInputError extends MemoryError {}
export declare class SecretRefusedError extends MemoryError {}
export declare class MemoryNotFoundError extends MemoryError {}
export declare class AmbiguousIdError extends MemoryError {}
export declare class PersonNotFoundError extends MemoryError {}
export declare class UnauthorizedError extends MemoryError {}
export declare class UnknownToolError extends MemoryError {}
export declare class StorageError extends MemoryError {}
export declare class IndexError extends MemoryError {}
export declare class BusyError extends MemoryError {}
export declare class SandboxError extends MemoryError {}
export declare class ConfigError extends MemoryError {}
export declare class IoError extends MemoryError {}
export declare class InternalError extends MemoryError {}

/** Every error class, by kind. */
export declare const ERROR_CLASSES: Record<ErrorKind, typeof MemoryError>;
/** The `MemoryError` for an error the component returned (a WIT `variant error`). */
export declare function fromGuest(e: unknown): MemoryError;

/** The embedded static model (the default embedder): 256 dimensions, no network. */
export declare class StaticEmbedder implements Embedder {
  constructor(dir?: string);
  embed(texts: string[]): Float32Array[];
  modelId(): string;
  dimension(): number;
  supersessionThreshold(): number;
  isRemote(): boolean;
}

/** A synchronous HTTP client for OpenAI-compatible services (a worker thread does the I/O). */
export declare class HttpClient {
  constructor(options?: { timeoutSecs?: number; retries?: number; apiKeyEnv?: string; backoffMs?: number });
  close(): void;
}

/** An OpenAI-compatible `/embeddings` service. */
export declare class OpenAiEmbedder implements Embedder {
  constructor(http: HttpClient, baseUrl: string, model: string, dimension: number);
  embed(texts: string[]): Float32Array[];
  modelId(): string;
  dimension(): number;
  isRemote(): boolean;
  close(): void;
}

/** An OpenAI-compatible `/chat/completions` service. */
export declare class OpenAiLlm implements Llm {
  constructor(http: HttpClient, baseUrl: string, model: string);
  complete(request: { system: string; prompt: string; maxTokens: number }): string;
  isRemote(): boolean;
  close(): void;
}

/** No language model: `complete` answers the `unavailable` error. */
export declare class NoLlm implements Llm {
  complete(request: { system: string; prompt: string; maxTokens: number }): string;
  isRemote(): boolean;
}
