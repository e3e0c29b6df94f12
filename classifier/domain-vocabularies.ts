import { contentWordsOf } from './content-words.ts';

/**
 * Vocabularies of the product categories Earshot's users track. A keyword's
 * context and company profile are a sentence or two: "the startup bank" names
 * banking but not wires, payroll or cards. The categories a profile's words
 * fall into lend it their vocabulary, at a lower weight than the profile's
 * own words, so that a post about wires and payroll reads as banking.
 */
const vocabularies: Record<string, string> = {
  programming: `programming language languages code coding codebase compiler compile compiled build builds error errors warning warnings
    type types typed function functions library libraries package packages module modules framework async await thread
    threads concurrency memory performance runtime binary binaries debug debugging debugger test tests testing refactor rewrite
    syntax developer developers backend frontend api sdk cli ide editor repo repository github opensource release version
    upgrade dependency dependencies production deploy server latency benchmark macro macros generics closure closures struct
    enum interface class toolchain safety unsafe ffi embedded systems
    webassembly wasm linter formatter json array arrays string strings object objects variable method methods pointer
    null optional optionals boilerplate python java javascript typescript kotlin golang ruby php scala elixir haskell zig
    node nodejs react vue django rails`,
  devops: `ci cd pipeline pipelines runner runners build builds cache caching docker kubernetes container containers deploy
    deployment deployments infrastructure terraform cloud aws gcp azure monitoring uptime incident oncall workflow workflows
    actions artifact artifacts monorepo`,
  databases: `database databases postgres postgresql mysql sqlite sql query queries table tables schema schemas index indexes
    replica replicas auth authentication storage bucket buckets realtime backend serverless edge functions hosting migration
    migrations backup backups connection connections row rows policy policies orm api rest selfhost selfhosted vector embeddings`,
  productivity: `docs documents document notes note wiki wikis page pages template templates workspace editor block blocks
    database calendar task tasks todo knowledge base meeting meetings collaboration collaborate share sharing export import
    markdown search sync offline notebook journal organize organise planner`,
  projectManagement: `issue issues ticket tickets sprint sprints cycle cycles backlog roadmap roadmaps milestone milestones
    project projects triage label labels priority epic story stories board boards kanban workflow engineering pm product
    manager managers tracker tracking estimate estimates assignee`,
  banking: `bank banks banking account accounts checking savings deposit deposits wire wires transfer transfers ach card cards
    debit credit payroll invoice invoices invoicing payment payments fee fees treasury yield interest fdic kyc verification
    onboarding llc corp entity entities founder founders startup startups runway expense expenses spend reimbursement
    bill bills accounting bookkeeping finance fintech cash limit limits`,
  payments: `payment payments checkout subscription subscriptions billing invoice refund refunds chargeback card cards merchant
    merchants payout payouts fee fees currency currencies tax`,
  mobility: `ride rides driver drivers taxi cab cabs trip trips airport pickup fare fares surge scooter scooters ebike bike
    bikes rental delivery courier couriers food order orders restaurant restaurants city cities commute passenger passengers
    car cars booking cancel cancellation`,
  featureManagement: `rollout rollouts release releases deploy deployment canary kill switch experiment experiments experimentation
    testing toggle toggles flag flags targeting percentage segment segments variant variants sdk
    environments progressive delivery`,
  apis: `graphql schema schemas query queries mutation mutations subscription subscriptions resolver resolvers federation
    gateway router supergraph subgraph subgraphs cache client clients server servers rest api apis endpoint endpoints`,
  ai: `ai ml model models llm llms prompt prompts agent agents inference training embeddings gpt chatbot copilot`,
  mobile: `ios android app apps mobile iphone ipad xcode swiftui kotlin appstore`,
};

export const domainVocabularies: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(vocabularies).map(([name, words]) => [name, new Set(contentWordsOf(words))]),
);
