package demo

// projectDef describes one demo project: where it lives, its tree, how often
// it was analysed and what it carries.
type projectDef struct {
	workspace, key, defaultBranch string
	daysAgo                       int // created, before the first analysis
	componentsEnabled             bool
	admins                        []string // project admins, by login
	schedule                      schedule
	tree                          string
	issues                        int // issues of the latest default-branch snapshot (every snapshot carries its own)
	builds                        int // builds besides those of the snapshots shown
	buildDays                     int // how far back the builds go
	coverage                      bool
	release                       string // git tag of a covered default-branch commit
	feature                       *featureDef
	components                    []componentDef
	committers                    []string // logins of the people who push
	firstPR                       int      // pull request numbers start here
	messages                      []string // commit messages
}

// schedule is when a project was analysed on its default branch.
type schedule struct {
	every     [2]int // days between analyses, at least and at most
	count     int    // number of analyses; 0: as many as fit in span
	span      int    // days back of the first analysis, when count is 0
	lastHours [2]int // hours before now of the latest analysis
}

// featureDef is a feature branch that was analysed a few times.
type featureDef struct {
	branch    string
	snapshots int
	files     map[string]int64 // files only on the branch, with their lines
}

// componentDef is a component of a project.
type componentDef struct {
	name, description string
	globs             []string
	creator           string
	daysAgo           int
}

var projectDefs = []projectDef{
	{
		workspace: "acme", key: "web-shop", defaultBranch: "main", daysAgo: 372,
		componentsEnabled: true,
		schedule:          schedule{every: [2]int{8, 13}, span: 365, lastHours: [2]int{2, 20}},
		issues:            1000,
		builds:            16, buildDays: 110,
		coverage: true, release: "v1.4.0",
		feature: &featureDef{branch: "feature/checkout-redesign", snapshots: 3, files: map[string]int64{
			"web/src/features/checkout/CheckoutStepper.tsx":   214,
			"web/src/features/checkout/useCheckoutState.ts":   131,
			"web/src/features/checkout/ExpressPayButtons.tsx": 96,
		}},
		components: []componentDef{
			{name: "API", description: "The shop's HTTP API: server entry point, routing and handlers.", globs: []string{"cmd/api/*", "internal/api/*"}, creator: DemoLogin, daysAgo: 210},
			{name: "Checkout", description: "Cart, pricing and checkout, server and browser side.", globs: []string{"internal/cart/*", "internal/checkout/*", "web/src/features/checkout/*"}, creator: DemoLogin, daysAgo: 150},
			{name: "Frontend", description: "The React single-page application.", globs: []string{"web/*"}, creator: DemoLogin, daysAgo: 210},
			{name: "Tests", description: "Unit, component and end-to-end tests.", globs: []string{"*_test.go", "*.test.ts", "*.test.tsx", "web/e2e/*"}, creator: DemoLogin, daysAgo: 90},
		},
		committers: []string{"ada", "linus", DemoLogin, "grace"},
		firstPR:    312,
		messages: []string{
			"Fix rounding of cart totals with percentage promotions",
			"Add product search suggestions to the header",
			"Cache catalog category pages for 60s",
			"Show estimated delivery dates on the product page",
			"Refactor checkout address validation",
			"Lazy-load product gallery images",
			"Move session handling into internal/users",
			"Handle out-of-stock items during checkout",
			"Add German and Spanish translations for the cart",
			"Fix double submit on the payment step",
			"Log slow catalog queries",
			"Bump vite from 5.2.8 to 5.4.11 in /web",
			"Add order history pagination",
			"Return 409 when a cart was modified concurrently",
			"Extract PriceTag component",
			"Retry payment webhooks with backoff",
		},
		tree: `
.: !go.mod|!go.sum|!Makefile|!Dockerfile|!README.md|.golangci.yml|docker-compose.yml|.env.example
.github/workflows: !ci.yml|release.yml|codeql.yml
cmd/api: !main.go
cmd/worker: main.go
cmd/seed: main.go
internal/api: !router.go*|!middleware.go*|auth.go*|errors.go|pagination.go*|handlers_cart.go*|handlers_checkout.go*|handlers_catalog.go*|handlers_orders.go*|handlers_users.go|webhooks.go*|-handlers_legacy.go|handlers_search.go*|handlers_wishlist.go|csrf.go*|ratelimit.go*|health.go
internal/cart: !cart.go*|pricing.go*|promotions.go*|store.go|events.go
internal/catalog: product.go*|search.go*|inventory.go*|store.go|cache.go|category.go
internal/checkout: !checkout.go*|shipping.go*|tax.go*|address.go*|idempotency.go
internal/orders: order.go*|store.go*|events.go|status.go|export.go
internal/users: user.go*|session.go*|password.go*|store.go
internal/payments: client.go*|webhook.go*
internal/platform/config: config.go*
internal/platform/db: db.go|migrate.go|tx.go
internal/platform/log: log.go
internal/platform/metrics: metrics.go
internal/platform/cache: redis.go*
internal/platform/mail: mailer.go|templates.go
internal/platform/featureflags: flags.go*
internal/wishlist: wishlist.go*|store.go
internal/reviews: review.go*|moderation.go*|store.go
internal/search: index.go*|query.go*|synonyms.go
internal/shipping: carriers.go*|dhl.go|ups.go|rates.go*
internal/notifications: email.go*|sms.go|templates.go
internal/legacy: -xmlfeed.go|-soap_client.go
migrations: !0001_init.sql|0002_catalog.sql|0003_orders.sql|0004_promotions.sql|0005_sessions.sql|0006_inventory_reservations.sql|0007_reviews.sql|0008_wishlist.sql|0009_search_synonyms.sql
web: !package.json|!package-lock.json|tsconfig.json|vite.config.ts|.eslintrc.cjs|index.html
web/src: !App.tsx|main.tsx|routes.tsx|env.d.ts
web/src/components: !Cart.tsx*|CartItem.tsx*|ProductCard.tsx*|ProductGrid.tsx|Header.tsx|Footer.tsx|SearchBar.tsx*|Pagination.tsx*|PriceTag.tsx*|Rating.tsx|Modal.tsx|Button.tsx|Spinner.tsx|Toast.tsx|AddressForm.tsx*|CheckoutSummary.tsx|MiniCart.tsx|Breadcrumbs.tsx|ImageGallery.tsx|QuantityPicker.tsx*|-OldCart.jsx|-Carousel.jsx|WishlistButton.tsx|ReviewList.tsx*|ReviewForm.tsx*|StarInput.tsx|CategoryMenu.tsx|Newsletter.tsx|CookieBanner.tsx|LanguageSwitcher.tsx|Skeleton.tsx|Tooltip.tsx
web/src/pages: !Home.tsx|Product.tsx|Category.tsx|Checkout.tsx|OrderHistory.tsx|Account.tsx|Login.tsx|NotFound.tsx|Search Results.tsx|Wishlist.tsx|Register.tsx|ResetPassword.tsx|OrderDetail.tsx*
web/src/hooks: useCart.ts*|useAuth.ts|useDebounce.ts*|useProducts.ts|useLocalStorage.ts|useWishlist.ts|useMediaQuery.ts|useIntersection.ts
web/src/api: client.ts*|cart.ts|catalog.ts|orders.ts|auth.ts|reviews.ts|wishlist.ts|search.ts
web/src/store: cartSlice.ts*|userSlice.ts|index.ts|wishlistSlice.ts|uiSlice.ts
web/src/utils: currency.ts*|format.ts*|validation.ts*|analytics.ts|dates.ts*|seo.ts|storage.ts
web/src/styles: theme.ts|global.css|tokens.css
web/public: robots.txt|manifest.json
web/src/features/checkout: CheckoutPage.tsx|PaymentStep.tsx*|ShippingStep.tsx|ReviewStep.tsx|checkoutMachine.ts*
web/src/i18n: en.json|de.json|es.json
web/e2e: checkout.spec.ts|search.spec.ts|account.spec.ts
scripts: !migrate.py|seed_catalog.py|export_orders.py|check_prices.py|requirements.txt|deploy.sh|reindex_search.py|purge_sessions.py
config: dev.yaml|staging.yaml|prod.yaml
testdata: orders.json|catalog.json|webhook_stripe.json
docs: !architecture.md|!guía de estilo.md|!Release Notes.md|api.md|adr-001-monolith.md|adr-002-react.md
docs/runbooks: !On Call Handbook.md|database restore.md
`,
	},
	{
		workspace: "acme", key: "payments-api", defaultBranch: "main", daysAgo: 368,
		componentsEnabled: true, admins: []string{"ada"},
		schedule: schedule{every: [2]int{8, 13}, span: 360, lastHours: [2]int{1, 16}},
		issues:   600,
		builds:   20, buildDays: 100,
		coverage: true,
		components: []componentDef{
			{name: "API", description: "HTTP entry point and handlers.", globs: []string{"cmd/api/*", "internal/api/*"}, creator: DemoLogin, daysAgo: 200},
			{name: "Payments", description: "Payment providers and the payment state machine.", globs: []string{"internal/payments/*"}, creator: DemoLogin, daysAgo: 200},
			{name: "Ledger", description: "Double-entry ledger and reconciliation.", globs: []string{"internal/ledger/*"}, creator: DemoLogin, daysAgo: 120},
			{name: "Tests", description: "Every Go test file.", globs: []string{"*_test.go"}, creator: DemoLogin, daysAgo: 60},
		},
		committers: []string{"ada", "linus", DemoLogin},
		firstPR:    140,
		messages: []string{
			"Add idempotency keys to the refund endpoint",
			"Verify Stripe webhook signatures with a tolerance window",
			"Reconcile ledger entries nightly",
			"Support partial captures for Adyen",
			"Fix currency rounding for JPY",
			"Emit payment.succeeded events to the outbox",
			"Bump golang.org/x/net from 0.17.0 to 0.23.0",
			"Reject refunds larger than the captured amount",
			"Add 3-D Secure challenge flow",
			"Trace provider calls with OpenTelemetry",
			"Move fraud checks behind a feature flag",
			"Lower webhook retry ceiling to 24h",
		},
		tree: `
.: !go.mod|!go.sum|!Makefile|!Dockerfile|!README.md|.golangci.yml|openapi.yaml|.env.example
.github/workflows: !ci.yml|release.yml
cmd/api: !main.go
cmd/reconcile: main.go
cmd/payouts: main.go
cmd/tools/replay: main.go
internal/api: !router.go*|middleware.go*|auth.go*|errors.go|handlers_payments.go*|handlers_refunds.go*|handlers_customers.go|handlers_webhooks.go*|idempotency.go*|handlers_disputes.go*|handlers_payouts.go*|pagination.go*|health.go
internal/payments: !payment.go*|state.go*|service.go*|errors.go|events.go*|-legacy_gateway.go
internal/payments/stripe: !client.go*|webhook.go*|mapping.go*|errors.go
internal/payments/adyen: client.go*|notifications.go*|mapping.go
internal/payments/paypal: client.go|orders.go*
internal/payments/fraud: rules.go*|score.go*|blocklist.go
internal/payments/klarna: client.go*|mapping.go
internal/payments/sepa: mandate.go*|xml.go*
internal/disputes: dispute.go*|evidence.go*|store.go
internal/payouts: payout.go*|schedule.go*|store.go
internal/webhooks: delivery.go*|signing.go*|store.go
internal/audit: audit.go*|store.go
internal/platform/vault: vault.go*
internal/platform/featureflags: flags.go
pkg/client: client.go*|payments.go|refunds.go|errors.go
proto/payments/v1: payments.proto|refunds.proto
internal/ledger: !ledger.go*|entry.go*|account.go|reconcile.go*|store.go*|report.go|balances.go*|fx.go
internal/customers: customer.go*|store.go|vault.go*|payment_methods.go*
internal/outbox: outbox.go*|dispatcher.go*
internal/currency: money.go*|rates.go*|iso4217.go|format.go*
internal/platform/config: config.go*
internal/platform/postgres: db.go|tx.go*|migrate.go
internal/platform/httpx: client.go*|retry.go*
internal/platform/telemetry: tracing.go|metrics.go
migrations: !0001_init.sql|0002_ledger.sql|0003_refunds.sql|0004_outbox.sql|0005_customers_vault.sql|0006_fraud.sql|0007_partial_captures.sql|0008_disputes.sql|0009_payouts.sql|0010_webhooks.sql|0011_audit.sql
scripts: migrate.py|replay_webhooks.py|ledger_audit.py|requirements.txt|export_disputes.py
testdata: stripe_charge_succeeded.json|stripe_refund.json|adyen_notification.json|paypal_order.json|klarna_session.json|sepa_mandate.xml
config: dev.yaml|prod.yaml|fraud_rules.yaml
docs: architecture.md|payment states.md|runbook.md|adr-003-ledger.md|disputes.md|webhooks.md
`,
	},
	{
		workspace: "acme", key: "billing-worker", defaultBranch: "master", daysAgo: 250,
		schedule: schedule{every: [2]int{7, 7}, count: 30, lastHours: [2]int{20, 60}},
		issues:   220,
		builds:   20, buildDays: 120,
		committers: []string{"linus", "ada"},
		firstPR:    57,
		messages: []string{
			"Generate invoices in parallel per customer",
			"Retry failed dunning emails",
			"Add VAT reverse-charge note to EU invoices",
			"Fix proration for mid-month plan changes",
			"Upgrade to Go 1.22",
			"Store invoice PDFs in object storage",
		},
		tree: `
.: !go.mod|!go.sum|!Makefile|!Dockerfile|!README.md
.github/workflows: ci.yml
cmd/worker: !main.go
internal/invoices: !invoice.go*|generate.go*|pdf.go*|numbering.go*|store.go|credit_notes.go*|currency.go*|email.go
internal/dunning: dunning.go*|schedule.go*|emails.go
internal/proration: proration.go*|plans.go
internal/tax: vat.go*|rates.go|reverse_charge.go*
internal/queue: consumer.go*|producer.go|retry.go*
internal/storage: s3.go*|local.go
internal/subscriptions: subscription.go*|renewals.go*|store.go*|trials.go
internal/usage: meter.go*|aggregate.go*|store.go
internal/webhooks: stripe.go*|handler.go
internal/platform/log: log.go
internal/platform/metrics: metrics.go
cmd/backfill: main.go
testdata: invoice_eu.json|invoice_us.json|usage_events.json
config: dev.yaml|prod.yaml
internal/platform/config: config.go
internal/platform/db: db.go|tx.go
migrations: !0001_init.sql|0002_dunning.sql|0003_tax.sql|0004_subscriptions.sql|0005_usage.sql|0006_credit_notes.sql
scripts: backfill_invoices.py|requirements.txt|reconcile_stripe.py|usage_report.py
templates: invoice.html|dunning_email.html|dunning_final.html|credit_note.html
docs: invoicing.md|dunning.md|subscriptions lifecycle.md
`,
	},
	{
		workspace: "acme", key: "infra", defaultBranch: "main", daysAgo: 200,
		schedule: schedule{every: [2]int{12, 25}, count: 6, lastHours: [2]int{30, 90}},
		issues:   100,
		builds:   12, buildDays: 90,
		committers: []string{"grace", "linus"},
		firstPR:    21,
		messages: []string{
			"Add staging Redis cluster",
			"Rotate database credentials via Vault",
			"Tighten security group for the payments VPC",
			"Move Terraform state to S3 with locking",
		},
		tree: `
.: !README.md|!Makefile|.tflint.hcl
.github/workflows: plan.yml|apply.yml
terraform/modules/vpc: !main.tf|variables.tf|outputs.tf
terraform/modules/rds: main.tf|variables.tf|outputs.tf
terraform/modules/redis: main.tf|variables.tf
terraform/modules/eks: main.tf|variables.tf|outputs.tf|iam.tf
terraform/modules/s3: main.tf|variables.tf|outputs.tf
terraform/modules/cloudfront: main.tf|variables.tf
terraform/modules/iam: main.tf|policies.tf|variables.tf
k8s/billing-worker: deployment.yaml|configmap.yaml
k8s/ingress-nginx: values.yaml
k8s/cert-manager: issuer.yaml
ansible/roles/bastion/tasks: main.yml
ansible/roles/bastion/templates: sshd_config.j2
terraform/envs/staging: !main.tf|backend.tf|terraform.tfvars|variables.tf|outputs.tf
terraform/envs/production: main.tf|backend.tf|terraform.tfvars|variables.tf|outputs.tf
k8s/web-shop: deployment.yaml|service.yaml|ingress.yaml|hpa.yaml
k8s/payments-api: deployment.yaml|service.yaml|networkpolicy.yaml
k8s/monitoring: prometheus.yaml|alertmanager.yaml|grafana-dashboards.yaml
scripts: !rotate_credentials.py|drain_node.sh|backup_rds.sh|cost_report.py|requirements.txt|bootstrap.sh|rotate_tls.sh|audit_iam.py
ansible: site.yml|bastion.yml
docs: !disaster recovery.md|networking.md|on-call.md|terraform conventions.md
tools/dnsctl: go.mod|go.sum|main.go|records.go*|cloudflare.go*|cmd.go*|config.go
`,
	},
	{
		workspace: "globex", key: "data-pipeline", defaultBranch: "main", daysAgo: 300,
		componentsEnabled: true, admins: []string{"margaret"},
		schedule: schedule{every: [2]int{7, 7}, count: 20, lastHours: [2]int{6, 40}},
		issues:   260,
		builds:   22, buildDays: 120,
		components: []componentDef{
			{name: "Ingestion", description: "Connectors that land raw data.", globs: []string{"pipeline/ingest/*"}, creator: "margaret", daysAgo: 100},
			{name: "Transforms", description: "Cleaning and modelling steps.", globs: []string{"pipeline/transforms/*", "sql/*"}, creator: "margaret", daysAgo: 100},
		},
		committers: []string{"margaret", "linus", DemoLogin},
		firstPR:    88,
		messages: []string{
			"Add Salesforce incremental export",
			"Deduplicate events by (source, event_id)",
			"Partition clickstream tables by day",
			"Fix timezone handling in daily rollups",
			"Switch to pyarrow for parquet writing",
			"Add data quality checks for orders",
		},
		tree: `
.: !pyproject.toml|!poetry.lock|!README.md|Makefile|Dockerfile|.pre-commit-config.yaml
.github/workflows: ci.yml
pipeline: !__init__.py|cli.py*|config.py*|dag.py*|settings.py
pipeline/ingest: !__init__.py|salesforce.py*|stripe_export.py*|clickstream.py*|postgres_cdc.py*|s3_landing.py|hubspot.py*|zendesk.py*|google_ads.py|shopify.py*
pipeline/transforms: __init__.py|clean_orders.py*|sessions.py*|rollups.py*|currency.py*|dedupe.py*|attribution.py*|customers.py*|products.py
pipeline/quality: __init__.py|checks.py*|expectations.py|report.py|anomalies.py*
pipeline/io: __init__.py|parquet.py*|warehouse.py*|secrets.py|bigquery.py*|gcs.py
pipeline/models: __init__.py|churn.py*|ltv.py*|features.py
pipeline/utils: __init__.py|dates.py*|retry.py*|logging.py
dags: daily.py|hourly.py|backfill.py
config: dev.yaml|prod.yaml
scripts: backfill.sh|refresh_views.py
sql: daily_revenue.sql|sessions.sql|funnel.sql|cohorts.sql|orders_clean.sql|attribution.sql|ltv.sql|product_performance.sql|marketing_spend.sql
notebooks: exploration.py|churn_model.py
tests: conftest.py|fixtures.py|test_integration_warehouse.py
docs: data contracts.md|!runbook.md|metrics glossary.md
`,
	},
	{
		workspace: "globex", key: "partner-portal", defaultBranch: "main", daysAgo: 180,
		admins:   []string{DemoLogin, "linus"},
		schedule: schedule{every: [2]int{5, 12}, count: 12, lastHours: [2]int{10, 70}},
		issues:   180,
		builds:   18, buildDays: 90,
		committers: []string{"linus", DemoLogin},
		firstPR:    33,
		messages: []string{
			"Add partner onboarding wizard",
			"Show payout history as a table",
			"Fix date picker in Safari",
			"Add role-based navigation",
			"Bump react-router-dom from 6.22.0 to 6.26.2",
		},
		tree: `
.: !package.json|!package-lock.json|!README.md|tsconfig.json|vite.config.ts|.eslintrc.cjs|Dockerfile
.github/workflows: ci.yml
src: !main.tsx|App.tsx|routes.tsx
src/components: Layout.tsx|Sidebar.tsx|DataTable.tsx*|DatePicker.tsx*|Avatar.tsx|Badge.tsx|EmptyState.tsx|ConfirmDialog.tsx|Pagination.tsx*|SearchInput.tsx|Toast.tsx|Tabs.tsx|FileUpload.tsx*|Chart.tsx
src/pages: Dashboard.tsx|Payouts.tsx*|Partners.tsx|PartnerDetail.tsx|Onboarding.tsx*|Settings.tsx|Login.tsx|Invoices.tsx*|Reports.tsx|Users.tsx|NotFound.tsx
src/api: client.ts*|partners.ts|payouts.ts|auth.ts|invoices.ts|reports.ts|users.ts
src/hooks: usePagination.ts*|useSession.ts|usePermissions.ts*|useDebounce.ts|useToast.ts
src/utils: dates.ts*|money.ts*|csv.ts|permissions.ts*|validation.ts*
src/styles: theme.ts|global.css
e2e: login.spec.ts|payouts.spec.ts
public: favicon.svg|robots.txt
src/i18n: en.json|fr.json|de.json
server: index.ts|proxy.ts*|session.ts|auth.ts*|rateLimit.ts
docs: !onboarding flow.md
`,
	},
	{
		workspace: "initech", key: "tps-reports", defaultBranch: "main", daysAgo: 330,
		schedule: schedule{every: [2]int{14, 30}, count: 8, lastHours: [2]int{48, 200}},
		issues:   150,
		builds:   14, buildDays: 120,
		committers: []string{"grace", "margaret"},
		firstPR:    12,
		messages: []string{
			"Add new cover sheet to TPS reports",
			"Export reports as PDF",
			"Fix week numbering around New Year",
			"Migrate cron jobs to the scheduler",
		},
		tree: `
.: !go.mod|!go.sum|!README.md|Makefile|Dockerfile
cmd/tps: !main.go
internal/report: !report.go*|cover_sheet.go*|render.go*|pdf.go|export.go*|templates.go|validation.go*
internal/schedule: schedule.go*|weeks.go*
internal/store: store.go*|migrate.go
internal/mail: mail.go|templates.go
internal/users: user.go*|store.go|roles.go
internal/audit: audit.go*
internal/http: server.go*|handlers.go*|middleware.go
internal/pdf: fonts.go|layout.go*
cmd/tps-admin: main.go
config: config.yaml
testdata: report_q3.json|legacy_export.csv
web: index.html|app.js|styles.css
scripts: import_legacy.py|requirements.txt|nightly.sh|export_csv.py|cleanup.sh
migrations: 0001_init.sql|0002_cover_sheets.sql|0003_users.sql|0004_audit.sql
templates: report.html|cover_sheet.html|email_reminder.html
docs: memo about cover sheets.md|architecture.md
`,
	},
}
