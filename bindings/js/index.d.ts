// Types of the public API. The data types are derived from the component's own types, which
// jco generates from the WIT into generated/interfaces/*.d.ts (shipped with the package after
// `npm run build`): a field added to or renamed in the WIT changes them here too, and
// `npm test` type-checks the API's use against them.

import type * as Wit from "./generated/interfaces/ash-memory-types.js";
import type * as Memories from "./generated/interfaces/ash-memory-memories.js";
import type * as People from "./generated/interfaces/ash-memory-people.js";
import type * as Recall from "./generated/interfaces/ash-memory-recall.js";
import type * as Maintenance from "./generated/interfaces/ash-memory-maintenance.js";
import type * as Conversations from "./generated/interfaces/ash-memory-conversations.js";

/** `supersededById` → `superseded_by_id`: a WIT field as the JSONL (and `ash-memory serve`) names it. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Rest>}`
  : S;
/** `ephemeral-decay` → `ephemeral_decay`: a WIT enum case as the JSONL spells it. */
type EnumCase<S> = S extends `${infer Head}-${infer Rest}` ? `${Head}_${EnumCase<Rest>}` : S;
/** A WIT value in a result: enum cases in snake_case, an absent option as `null`. */
type WireValue<V> = undefined extends V ? EnumCase<Exclude<V, undefined>> | null : EnumCase<V>;
/** A WIT record in a result: every field present, with its JSONL name. */
type Wire<R> = { [K in keyof R as SnakeCase<K & string>]-?: WireValue<R[K]> };
/** A WIT record as an argument: the fields the WIT requires that have a default here optional. */
type WithDefaults<R, Required extends keyof R> = Pick<R, Required> & Partial<Omit<R, Required>>;

/** Who is asking: a user, and the chat the call comes from. A bare string is a user id. */
export type Caller =
  | string
  | (Wit.Caller & { user?: Wit.UserId; chat?: Wit.ChatId; user_id?: Wit.UserId; chat_id?: Wit.ChatId });

export type MemoryType = Wit.MemoryType;

export type ArchiveReason = EnumCase<Wit.ArchiveReason>;

/** A stored memory, with the JSONL field names (as `ash-memory serve` answers). */
export type MemoryRecord = Wire<Wit.Memory>;

/** A search hit: the memory plus its fused score, cosine similarity, subjects' names and how it
 * was found ("meaning", "words", "person", "entity", "time", "reply"). */
export type SearchHit = MemoryRecord & Wire<Omit<Wit.SearchHit, "memory">>;

export interface SearchResults { hits: SearchHit[]; notices: Recall.SearchResults["notices"] }

export interface Added {
  memories: MemoryRecord[];
  superseded: { memory: MemoryRecord; superseded_by_id: Wit.MemoryId }[];
  evicted: MemoryRecord[];
  /** Ids in `memories` that were already stored: the fact was told again, nothing was written. */
  restated: Wit.MemoryId[];
}

export type Person = Wire<Omit<Wit.Person, "relationships">> & {
  relationships: { person_id: Wit.PersonId; relation: string }[];
};

/** What forgetting a person did. */
export type Forgotten = Wire<Omit<People.Forgotten, "person">> & { person: Person };

/** A message of another session, as the context shows it (`role` "user" or "assistant"). */
export type PastMessage = Wire<Conversations.PastMessage>;

export type ContextBlock = Wire<Omit<Recall.ContextBlock, "people" | "memories" | "pastMessages">> & {
  people: Person[];
  memories: SearchHit[];
  past_messages: PastMessage[];
};

/** One exchange to store: `session` and `userMessage` are required. */
export type Turn = WithDefaults<Conversations.Turn, "session" | "userMessage">;

/** What storing a turn wrote. */
export type StoredTurn = Wire<Conversations.StoredTurn>;

/** What an extraction did: the memories it stored (`source` "extraction") and what it skipped. */
export type Extraction = Wire<Omit<Conversations.Extraction, "stored">> & { stored: MemoryRecord[] };

/** The user's profile: notes, most important first, and the memories behind them. */
export type Profile = Wire<Conversations.UserProfile>;

export interface GcReport {
  dry_run: Maintenance.GcReport["dryRun"];
  archived: (Wire<Omit<Maintenance.Archived, "reason">> & { archive_reason: ArchiveReason })[];
  counts: Partial<Record<ArchiveReason, number>>;
}

/** A memory to store: only `content` is required. */
export type NewMemory = WithDefaults<Memories.NewMemory, "content">;

/** A correction of a memory: only `content` is required; an absent `memoryType` or `subjects` keeps the memory's. */
export type Correction = WithDefaults<Memories.Correction, "content">;

export type ListOptions = Partial<Memories.ListOptions>;

/** A search: the text (`query`), at most `limit` hits, only about one person (`about`). */
export type SearchQuery = { query: Recall.SearchQuery["text"] } & Omit<Recall.SearchQuery, "text">;

export type NewPerson = WithDefaults<People.NewPerson, "name">;

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
  /** Stores the new text as a new memory that replaces this one (`history` shows both). */
  correct(caller: Caller, id: string, correction: Correction | string): Promise<Added>;
  search(caller: Caller, query: SearchQuery | string): Promise<SearchResults>;
  /** Past messages come from the caller's sessions other than `session`. */
  context(caller: Caller, request: { message: string; maxTokens?: number; session?: string } | string): Promise<ContextBlock>;
  /** Stores one exchange (secrets redacted first); facts are read by `extract`. */
  turn(caller: Caller, turn: Turn): Promise<StoredTurn>;
  /** Reads exchanges not read before (of one session, or all) for facts worth remembering. */
  extract(caller: Caller, options?: { session?: string } | string): Promise<Extraction>;
  /** The caller's user profile. */
  profile(caller: Caller): Promise<Profile>;
  people: {
    list(caller: Caller): Promise<Person[]>;
    show(caller: Caller, reference: string): Promise<Person>;
    add(caller: Caller, person: NewPerson | string): Promise<Person>;
    alias(caller: Caller, reference: string, alias: string): Promise<Person>;
    merge(caller: Caller, keep: string, merge: string): Promise<Person>;
    /** Memories about them alone are archived (removed, with `purge`); others lose them. */
    forget(caller: Caller, reference: string, options?: { purge?: boolean }): Promise<Forgotten>;
  };
  tools: {
    schemas(): Promise<unknown>;
    call(caller: Caller, name: string, args: unknown): Promise<string>;
  };
  gc(options?: { dryRun?: boolean }): Promise<GcReport>;
  compact(options?: { olderThanDays?: number; force?: boolean }): Promise<{ removed: Wit.MemoryId[]; kept: number; forced: boolean }>;
  rebuildIndex(): Promise<{ indexed: number; embedded: number; pending: number; quarantined: number }>;
  doctor(options?: { fix?: boolean }): Promise<Maintenance.Finding[]>;
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

/** The embedded static model (`provider = "static"`): 256 dimensions, no network. */
export declare class StaticEmbedder implements Embedder {
  constructor(dir?: string);
  embed(texts: string[]): Float32Array[];
  modelId(): string;
  dimension(): number;
  supersessionThreshold(): number;
  isRemote(): boolean;
}

/** The embedded transformer (the default embedder), all-MiniLM-L6-v2 with int8 weights run
 * by the Rust host's encoder compiled to WebAssembly: 384 dimensions, no network. */
export declare class TransformerEmbedder implements Embedder {
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
