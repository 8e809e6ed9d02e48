/** Schema migrations, applied in order at start-up. Never edit one that has shipped; add a new one. */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'accounts, sessions, document log, horse and lookup projection',
    sql: /* sql */ `
      create table users (
        id uuid primary key,
        email text not null unique,
        first_name text,
        last_name text,
        role text not null default 'Staff' check (role in ('Admin', 'Staff', 'Viewer')),
        password_hash text,
        profile_image_url text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      -- Lucia-style sessions: only the SHA-256 of the cookie token is stored.
      create table sessions (
        id text primary key,
        user_id uuid not null references users (id) on delete cascade,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index sessions_user_id on sessions (user_id);

      -- One row per document; last_seq hands out the log's sequence numbers under a row lock,
      -- so seq order is commit order even with several server instances.
      create table docs (
        name text primary key,
        last_seq bigint not null default 0
      );

      create table doc_updates (
        doc text not null references docs (name),
        seq bigint not null,
        update bytea not null,
        user_id uuid,
        created_at timestamptz not null default now(),
        primary key (doc, seq)
      );

      create table doc_snapshots (
        doc text primary key references docs (name),
        state bytea not null,
        upto_seq bigint not null,
        created_at timestamptz not null default now()
      );

      create table breeds (id uuid primary key, name text not null, is_active boolean not null default true);
      create table colors (id uuid primary key, name text not null, is_active boolean not null default true);
      create table genders (id uuid primary key, name text not null, is_active boolean not null default true);
      create table statuses (id uuid primary key, name text not null, is_active boolean not null default true);

      create table horses (
        id uuid primary key,
        name text not null,
        breed_id uuid not null,
        color_id uuid not null,
        gender_id uuid not null,
        status_id uuid,
        owner_id uuid,
        birthdate date,
        age_years integer,
        price_usd numeric(14, 2),
        photo_url text,
        notes text
      );
      create index horses_name on horses (lower(name));
      create index horses_status on horses (status_id);
      create index horses_breed on horses (breed_id);
      create index horses_owner on horses (owner_id);
    `,
  },
  {
    version: 3,
    name: 'photo objects, upload tokens, failed sign-in counters',
    sql: /* sql */ `
      -- Photo bytes live in Postgres so every instance serves every photo (DESIGN "Beyond one
      -- machine"); objects are immutable, so sha256 doubles as the ETag.
      create table objects (
        id uuid primary key,
        owner_id uuid not null references users (id),
        content_type text not null,
        size integer not null check (size > 0),
        sha256 text not null,
        bytes bytea not null,
        created_at timestamptz not null default now()
      );

      -- Single-use upload URLs: only the SHA-256 of the URL's token is stored. The object id
      -- is chosen when the URL is handed out; used_at is set when its bytes arrive.
      create table upload_tokens (
        token_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        object_id uuid not null unique,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index upload_tokens_unused_expiry on upload_tokens (expires_at) where used_at is null;

      -- Failed sign-ins per key (a hash of 'account:<email>' or 'address:<ip>') in a fixed
      -- window that starts at the first failure, shared by every instance.
      create table login_attempts (
        key text primary key,
        failures integer not null,
        window_started_at timestamptz not null
      );
      create index login_attempts_window on login_attempts (window_started_at);
    `,
  },
  {
    version: 2,
    name: 'supplier, buyer, sale and payment projection; entity problems',
    sql: /* sql */ `
      create table owners (
        id uuid primary key,
        first_name text not null,
        last_name text not null,
        phone text,
        email text,
        created_at timestamptz not null
      );
      create index owners_last_name on owners (lower(last_name));

      create table buyers (
        id uuid primary key,
        first_name text not null,
        last_name text not null,
        phone text,
        email text
      );

      create table sales (
        id uuid primary key,
        horse_id uuid not null,
        buyer_id uuid not null,
        sale_price numeric(14, 2) not null,
        down_payment numeric(14, 2) not null default 0,
        terms_months integer not null,
        interest_apr double precision,
        schedule_start_date date,
        created_at timestamptz not null
      );
      create index sales_horse on sales (horse_id);
      create index sales_buyer on sales (buyer_id);

      -- Payments are append-only in the document; the projection follows it.
      create table payments (
        id uuid primary key,
        sale_id uuid not null,
        installment_id uuid,
        amount numeric(14, 2) not null,
        date date not null,
        method text not null,
        memo text,
        created_at timestamptz not null
      );
      create index payments_sale on payments (sale_id);

      -- Entities in the document that fail the shared schema or point at nothing: kept in
      -- the document (nothing a device wrote is thrown away), left out of the projection,
      -- and listed here until a later change makes them valid.
      create table entity_problems (
        collection text not null,
        entity_id text not null,
        problem text not null,
        detected_at timestamptz not null default now(),
        primary key (collection, entity_id)
      );
    `,
  },
  {
    version: 4,
    name: 'tombstones: the last valid state of deleted entities; rules a document was checked by',
    sql: /* sql */ `
      -- The last valid state of each entity the projection removed, in document field names,
      -- so the server can bring it back when a device that was offline still refers to it
      -- (docs/sync-rules.md). Written by the projection in the commit that removes the row.
      create table entity_tombstones (
        collection text not null,
        entity_id uuid not null,
        fields jsonb not null,
        deleted_at timestamptz not null default now(),
        primary key (collection, entity_id)
      );

      -- The version of the sync rules (sync-server/src/sync/sweep.ts) every entity of the
      -- document was last checked by: a document stored under older rules is checked whole,
      -- once, when it is loaded.
      alter table docs add column checked_rules integer not null default 0;
    `,
  },
  {
    version: 5,
    name: 'the bootstrap admin account, by id',
    sql: /* sql */ `
      -- The account RANCH_ADMIN_EMAIL created (auth/users.ts ensureAdmin): found by this mark,
      -- never by its e-mail, so another account taking that e-mail is never made Admin.
      alter table users add column is_bootstrap boolean not null default false;
      create unique index users_one_bootstrap on users (is_bootstrap) where is_bootstrap;
    `,
  },
  {
    version: 6,
    name: 'inactive accounts; wrong current passwords per session',
    sql: /* sql */ `
      -- An Admin deactivates an account (api/users.ts): its sessions end, it cannot sign in,
      -- and its data stays. Backups carry it like every column.
      alter table users add column is_active boolean not null default true;

      -- Wrong current passwords given in a session (changing the password or the e-mail,
      -- api/account.ts); the session ends at the limit, so a borrowed session is no oracle.
      alter table sessions add column password_failures integer not null default 0;
    `,
  },
  {
    version: 7,
    name: 'sign-in throttling with growing delays; server secrets',
    sql: /* sql */ `
      -- Failed sign-ins per key (a hash of the device, the account and address, the account,
      -- or the address; auth/login-limits.ts): the next attempt under a key waits until
      -- next_attempt_at, a delay that grows with its failures. A key quiet for an hour is
      -- forgotten. The old fixed-window counts are dropped: they only ever lasted 15 minutes.
      delete from login_attempts;
      drop index login_attempts_window;
      alter table login_attempts rename column window_started_at to last_failure_at;
      alter table login_attempts add column next_attempt_at timestamptz not null;
      create index login_attempts_last_failure on login_attempts (last_failure_at);

      -- Secrets every instance shares, made on first use: 'device-cookie' signs the cookie a
      -- browser gets at a successful sign-in (auth/device-cookie.ts). Left out of backups.
      create table server_secrets (
        name text primary key,
        value bytea not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 8,
    name: 'photo quota and clean-up',
    sql: /* sql */ `
      -- [I8] When the clean-up (storage/photo-sweep.ts) last found no horse or profile naming
      -- the photo; null while one does. A photo unnamed for the whole grace is deleted.
      alter table objects add column unreferenced_since timestamptz;
      -- [I7] The quota adds up the sizes of one user's photos.
      create index objects_owner on objects (owner_id);
    `,
  },
  {
    version: 9,
    name: 'care entries',
    sql: /* sql */ `
      -- [K1] The projection of the document's careEntries: a horse's vaccinations, Coggins
      -- tests, farrier visits … with the date done, the next due date and who recorded it.
      create table care_entries (
        id uuid primary key,
        horse_id uuid not null,
        kind text not null,
        done_on date not null,
        next_due_on date,
        notes text,
        recorded_by uuid not null,
        recorded_by_name text,
        created_at timestamptz not null
      );
      create index care_entries_horse on care_entries (horse_id, done_on);
      create index care_entries_next_due on care_entries (next_due_on) where next_due_on is not null;
    `,
  },
  {
    version: 10,
    name: 'change history',
    sql: /* sql */ `
      -- [T1] Every change of every record, one row per changed field, written by the commit
      -- that makes the change durable (sync/history.ts), in the same statement as the log and
      -- the projection. Compaction deletes log rows, never these.
      -- seq: the log position the commit reached; step: the change's place in its commit.
      -- kind: 'create' (before is null), 'update' or 'delete' (after is null). before/after:
      -- the field as the projection reads it back ([Y3] values). user_id: who sent the
      -- change (null: the server's own). device_time: the device's claim (its updatedAt),
      -- never trusted; server_time is the truth.
      create table change_history (
        id bigserial primary key,
        seq bigint not null,
        step integer not null,
        collection text not null,
        entity_id uuid not null,
        kind text not null,
        field text not null,
        before jsonb,
        after jsonb,
        user_id uuid,
        device_time text,
        server_time timestamptz not null default now()
      );
      create index change_history_entity on change_history (collection, entity_id, id);
    `,
  },
  {
    version: 11,
    name: 'conflicts',
    sql: /* sql */ `
      -- [T6] Two writes of one field, neither made having seen the other (sync/conflicts.ts),
      -- written by the commit that found them, in the same statement as the log, the
      -- projection and the history. kept/other: the value the merge kept and the one it
      -- dropped, as the projection reads them back ([Y3] values); *_user: who wrote each
      -- (null: unknown or the server); *_time: when the server made each durable (null: before
      -- the history began). money: a money field, always asked. seq: the log position of the
      -- commit that found it. closed_*: the commit, person, time and way it was closed
      -- ('put back', 'kept', 'changed', 'deleted'); open while closed_seq is null.
      create table conflicts (
        id bigserial primary key,
        collection text not null,
        entity_id uuid not null,
        field text not null,
        kept jsonb,
        other jsonb,
        kept_user uuid,
        other_user uuid,
        kept_time timestamptz,
        other_time timestamptz,
        money boolean not null default false,
        seq bigint not null,
        detected_at timestamptz not null default now(),
        closed_seq bigint,
        closed_by uuid,
        closed_at timestamptz,
        closed_how text
      );
      create index conflicts_open on conflicts (collection, entity_id) where closed_seq is null;
      -- A change that met another: conflict_id names the conflict; lost marks a write the
      -- merge dropped (before: the value kept, after: the value dropped).
      alter table change_history add column conflict_id bigint, add column lost boolean not null default false;
    `,
  },
  {
    version: 12,
    name: 'session sign-in time',
    sql: /* sql */ `
      -- [U16] When the session's user last gave their password (signing in, or confirming a
      -- sensitive change): an Admin's account actions need it within the last few minutes.
      alter table sessions add column authenticated_at timestamptz;
      update sessions set authenticated_at = created_at;
      alter table sessions alter column authenticated_at set not null, alter column authenticated_at set default now();
    `,
  },
  {
    version: 13,
    name: 'document epochs',
    sql: /* sql */ `
      -- The document's epoch (docs/sync-rules.md "Document epochs"): '' until
      -- npm run rebuild-document rebuilds it from its valid records under a new one.
      -- retired_clients: the state vector (Yjs encoding) of every client id the document held
      -- before its rebuilds; an update naming one of them is state of an older epoch and is refused.
      alter table docs add column epoch text not null default '', add column retired_clients bytea;
    `,
  },
  {
    version: 14,
    name: 'upload chunks',
    sql: /* sql */ `
      -- An upload's bytes while they arrive (storage/upload-chunks.ts): a row per 256 KiB, each
      -- written by a short statement of its own, so the embedded database's one connection is
      -- never held for a whole photo; the upload's transaction joins them into objects, and
      -- they are deleted after it. attempt: one PUT (two PUTs of one URL never mix their rows). Rows of an
      -- upload a crash cut short are removed by the photo sweep.
      create table upload_chunks (
        attempt uuid not null,
        seq integer not null,
        bytes bytea not null,
        created_at timestamptz not null default now(),
        primary key (attempt, seq)
      );
    `,
  },
  {
    version: 15,
    name: 'ranch settings',
    sql: /* sql */ `
      -- [A14] The ranch's own settings, one row per setting ('name': the ranch's name, given
      -- at first run); read by GET /api/ranch.
      create table ranch_settings (
        name text primary key,
        value text not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 16,
    name: 'corrections',
    sql: /* sql */ `
      -- [P10]-[P12] [S17] Payments voided, sales cancelled, refunds: create-only records naming
      -- what they correct, like payments; the projection follows the document.
      create table corrections (
        id uuid primary key,
        kind text not null,
        sale_id uuid not null,
        payment_id uuid,
        amount numeric(14, 2),
        date date,
        method text,
        reason text not null,
        created_at timestamptz not null
      );
      create index corrections_sale on corrections (sale_id);
      create index corrections_payment on corrections (payment_id) where payment_id is not null;
      `,
  },
  {
    version: 17,
    name: 'account links',
    sql: /* sql */ `
      -- [U17] [U18] Invitation and password-reset links: only the SHA-256 of the link's token
      -- is stored. used_at: when it set a password (a link works once); a link past
      -- expires_at works no more. Left out of backups, like sessions (backup/tables.ts).
      create table account_links (
        id text primary key,
        user_id uuid not null references users (id) on delete cascade,
        kind text not null check (kind in ('invitation', 'reset')),
        created_by uuid references users (id) on delete set null,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index account_links_user on account_links (user_id);
    `,
  },
  {
    version: 18,
    name: 'status before a sale',
    sql: /* sql */ `
      -- [S18] The horse's status before the sale marked it Sold, given back on cancellation.
      alter table sales add column previous_status_id uuid;
    `,
  },
  {
    version: 19,
    name: 'ledger of recorded facts',
    sql: /* sql */ `
      -- Issue 68: sales, payments, care entries and corrections as immutable entries with
      -- the recording device's ids (sync-server/src/ledger, docs/sync-rules.md "Ledger").
      -- seq: the server's order, the next after the largest, handed out under an advisory lock
      -- held to the commit (ledger/store.ts), so that seq order is commit order: a reader after
      -- a cursor never misses an entry committed later with a lower seq. record: the entry's fields as the shared record schema reads them.
      -- recorded_by: who pushed it (null: moved from a document with no author known).
      -- flags: the rules it broke after the fact, kept ([P13]). effects_pending: a sale or a
      -- cancellation whose horse status has not yet reached the document ([S18]).
      create table ledger (
        seq bigint primary key,
        id uuid not null unique,
        collection text not null check (collection in ('sales', 'payments', 'careEntries', 'corrections')),
        record jsonb not null,
        recorded_by uuid,
        received_at timestamptz not null default now(),
        flags text[] not null default '{}',
        effects_pending boolean not null default false
      );
      create index ledger_sale on ledger ((record ->> 'saleId')) where collection in ('payments', 'corrections');
      create index ledger_horse on ledger ((record ->> 'horseId')) where collection = 'sales';
      create index ledger_effects on ledger (seq) where effects_pending;
    `,
  },
];
