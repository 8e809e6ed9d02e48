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
];
