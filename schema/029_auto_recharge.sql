-- billing subgraph: auto-recharge (spec 2.11.1, 3.2). A card is saved through
-- Stripe Checkout in setup mode; Stripe keeps it, the wallet keeps only
-- Stripe's ids and what a user needs to recognise the card (brand, last four
-- digits, expiry), never its number. An auto-recharge is a top-up order paid
-- off-session, credited once like any top-up.

alter table wallets
  add column stripe_customer_id        text unique,
  add column stripe_payment_method_id  text,
  add column card_brand                text,
  add column card_last4                text check (card_last4 ~ '^[0-9]{4}$'),
  add column card_exp_month            integer,
  add column card_exp_year             integer,
  add column card_saved_at             timestamptz,
  -- bumped whenever the user changes auto-recharge (its settings, a new card):
  -- with the credit epoch it names the one try a recharge gets
  add column auto_recharge_revision    integer not null default 0;

alter table top_up_orders
  add column source              text not null default 'checkout' check (source in ('checkout', 'auto_recharge')),
  -- the wallet's credit epoch when the auto-recharge came due
  add column credit_epoch        integer,
  -- sent to Stripe with the PaymentIntent: `auto_recharge:<workspace>:<epoch>.<revision>`,
  -- unique so that an epoch and revision get one try, and Stripe makes one payment for it
  add column idempotency_key     text unique,
  add column payment_intent_id   text unique,
  add column failure_code        text,
  add column failure_message     text,
  add column failed_at           timestamptz,
  -- runs that asked Stripe and got no answer; a run holds the order until lease_until
  add column runs                integer not null default 0,
  add column lease_until         timestamptz,
  add constraint auto_recharges_are_keyed check (source = 'checkout' or (idempotency_key is not null and credit_epoch is not null));

-- At most one auto-recharge in flight per wallet: a second is never started while Stripe has not settled the first.
create unique index top_up_orders_one_pending_auto_recharge on top_up_orders (workspace_id) where source = 'auto_recharge' and status = 'pending';
-- What the workers claim: auto-recharges not yet sent to (or not yet answered by) Stripe.
create index top_up_orders_due_auto_recharges on top_up_orders (lease_until) where source = 'auto_recharge' and status = 'pending' and payment_intent_id is null;
