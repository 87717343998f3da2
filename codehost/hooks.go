package codehost

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// VerifySignature reports whether sig, the X-Hub-Signature-256 header of a
// GitHub webhook delivery ("sha256=" and the hex HMAC-SHA256 of the raw
// body under the webhook secret), is right. The comparison takes constant
// time; an empty secret verifies nothing.
func VerifySignature(secret string, body []byte, sig string) bool {
	hexSum, ok := strings.CutPrefix(sig, "sha256=")
	if !ok || secret == "" {
		return false
	}
	got, err := hex.DecodeString(hexSum)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hmac.Equal(got, m.Sum(nil))
}

// Sign is the X-Hub-Signature-256 value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// PullRequest is a pull request as GitHub's pull_request webhook describes it.
type PullRequest struct {
	Number     int
	Title      string
	Author     string
	BaseBranch string
	HeadBranch string
	HeadSHA    string
	State      string // open or closed
	Merged     bool
	UpdatedAt  time.Time
}

// Installation is an installation or installation_repositories webhook:
// the App's installation id and the repositories (owner/name) it now
// covers, or, when Deleted, no longer covers; Uninstalled, the whole
// installation is gone (whatever repositories the event lists).
type Installation struct {
	ID           int64
	Repositories []string
	Deleted      bool
	Uninstalled  bool
}

// HookDelivery is one webhook delivery: its id (X-GitHub-Delivery), event
// (X-GitHub-Event), action and what it carries.
type HookDelivery struct {
	ID, Event, Action string
	Repository        string // owner/name of a pull_request event
	PullRequest       *PullRequest
	Installation      *Installation
	At                time.Time
}

// HookRecord is a delivery as kept for a project: what came and what it was
// answered.
type HookRecord struct {
	ID, Event, Action string
	Status            int
	At                time.Time
}

// Webhook actions Plumb keeps.
var (
	pullActions         = map[string]bool{"opened": true, "synchronize": true, "edited": true, "closed": true, "reopened": true}
	installationActions = map[string]bool{"created": true, "deleted": true, "new_permissions_accepted": true, "unsuspend": true, "suspend": true}
)

type hookRepo struct {
	FullName string `json:"full_name"`
}

type hookBody struct {
	Action     string    `json:"action"`
	Repository *hookRepo `json:"repository"`
	Pull       *struct {
		Number int    `json:"number"`
		Title  string `json:"title"`
		State  string `json:"state"`
		Merged bool   `json:"merged"`
		User   struct {
			Login string `json:"login"`
		} `json:"user"`
		Base struct {
			Ref string `json:"ref"`
		} `json:"base"`
		Head struct {
			Ref string `json:"ref"`
			SHA string `json:"sha"`
		} `json:"head"`
		UpdatedAt time.Time `json:"updated_at"`
	} `json:"pull_request"`
	Installation *struct {
		ID int64 `json:"id"`
	} `json:"installation"`
	Repositories []hookRepo `json:"repositories"`
	Added        []hookRepo `json:"repositories_added"`
	Removed      []hookRepo `json:"repositories_removed"`
}

// ParseHook reads a webhook delivery's JSON body. It returns ok false for an
// event or action Plumb does not keep, and an error (for a 400) for a body
// that is not JSON or lacks what the event needs.
func ParseHook(id, event string, body []byte) (d HookDelivery, ok bool, err error) {
	d = HookDelivery{ID: id, Event: event}
	if event != "pull_request" && event != "installation" && event != "installation_repositories" {
		return d, false, nil
	}
	var b hookBody
	if err := json.Unmarshal(body, &b); err != nil {
		return d, false, fmt.Errorf("the body is not the JSON of a %s event: %v", event, err)
	}
	d.Action = b.Action
	switch event {
	case "pull_request":
		if !pullActions[b.Action] {
			return d, false, nil
		}
		p := b.Pull
		if p == nil || b.Repository == nil || b.Repository.FullName == "" || p.Number < 1 || p.Head.SHA == "" {
			return d, false, fmt.Errorf("a pull_request event needs repository.full_name, pull_request.number and pull_request.head.sha")
		}
		if p.State != "open" && p.State != "closed" {
			return d, false, fmt.Errorf("pull_request.state must be open or closed, got %q", p.State)
		}
		d.Repository = b.Repository.FullName
		d.PullRequest = &PullRequest{Number: p.Number, Title: p.Title, Author: p.User.Login, BaseBranch: p.Base.Ref,
			HeadBranch: p.Head.Ref, HeadSHA: p.Head.SHA, State: p.State, Merged: p.Merged, UpdatedAt: p.UpdatedAt}
	default: // installation, installation_repositories
		repos := b.Repositories
		in := &Installation{}
		switch {
		case event == "installation" && installationActions[b.Action]:
			in.Deleted = b.Action == "deleted" || b.Action == "suspend"
			in.Uninstalled = in.Deleted
		case event == "installation_repositories" && b.Action == "added":
			repos = b.Added
		case event == "installation_repositories" && b.Action == "removed":
			repos, in.Deleted = b.Removed, true
		default:
			return d, false, nil
		}
		if b.Installation == nil || b.Installation.ID < 1 {
			return d, false, fmt.Errorf("an %s event needs installation.id", event)
		}
		in.ID = b.Installation.ID
		for _, r := range repos {
			if r.FullName != "" {
				in.Repositories = append(in.Repositories, r.FullName)
			}
		}
		d.Installation = in
	}
	return d, true, nil
}
