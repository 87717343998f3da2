package main

import (
	"github.com/plumbhq/plumb/codehost"
)

// githubFlags are the GitHub App's settings (docs/pull-requests.md, "GitHub
// App"), server flags of serve and demo.
type githubFlags struct {
	AppID         int64  `name:"github-app-id" placeholder:"ID" penv:"PLUMB_GITHUB_APP_ID" server:"" help:"The GitHub App's id: GitHub projects connected without a token publish through it, check runs included (default: no App)."`
	AppPrivateKey string `name:"github-app-private-key" placeholder:"PATH" penv:"PLUMB_GITHUB_APP_PRIVATE_KEY" server:"" help:"The App's private key: the path of its PEM file (the variable may hold the PEM itself)."`
	WebhookSecret string `name:"github-webhook-secret" placeholder:"SECRET" penv:"PLUMB_GITHUB_WEBHOOK_SECRET" server:"" help:"The App's webhook secret, which POST /hooks/github verifies deliveries with (default: webhooks off)."`
	APIURL        string `name:"github-api-url" placeholder:"URL" penv:"PLUMB_GITHUB_API_URL" server:"" help:"The GitHub API the App is on: https://HOST/api/v3 for GitHub Enterprise Server (default: https://api.github.com)."`
}

// Validate checks the App's settings: an id and a readable RSA key go
// together.
func (f *githubFlags) Validate() error {
	_, err := f.app()
	return err
}

// app is the configured GitHub App, nil without one.
func (f *githubFlags) app() (*codehost.App, error) {
	if f.AppID == 0 && f.AppPrivateKey == "" {
		return nil, nil
	}
	if f.AppID < 1 || f.AppPrivateKey == "" {
		return nil, usageError{"--github-app-id and --github-app-private-key go together: set both (a positive App id and the key's PEM file)"}
	}
	app, err := codehost.LoadApp(f.AppID, f.AppPrivateKey, f.APIURL)
	if err != nil {
		return nil, usageError{"--github-app-private-key: " + err.Error()}
	}
	return app, nil
}

// appOrNil is the configured App for the server's configuration: Validate
// has refused bad settings while the flags were parsed.
func (f *githubFlags) appOrNil() *codehost.App {
	app, err := f.app()
	if err != nil {
		return nil
	}
	return app
}
