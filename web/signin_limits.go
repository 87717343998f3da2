package web

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// Sign-in limits (docs/web.md, "Sign-in limits"). Failed password sign-ins
// are counted in the database, so every replica sees the same counts, on
// three counters:
//
//   - the login and the client address together: LoginAttempts failures
//     (default 5) are free, then each further failure makes the next attempt
//     from that address to that login wait 1 s, 2 s, 4 s… at most 15 minutes;
//   - the login alone, from any address: 4× as many free, then the same
//     growing delay;
//   - the address alone, for any login: 20× as many free, then the same.
//
// An address from which the login signed in with its password within 30 days
// is counted only on the first counter, so failures from elsewhere never
// slow its owner down there. A counter with no attempt for a day starts
// again at zero. Each attempt is reserved on its counters before the
// password is hashed (sqlstore.ReserveLoginAttempt); a right password gives
// its reservation back.
const (
	loginDelayBase    = time.Second
	loginDelayMax     = 15 * time.Minute
	loginForget       = 24 * time.Hour
	loginKnown        = 30 * 24 * time.Hour
	loginWideFactor   = 4
	addressWideFactor = 20
	pruneEvery        = 10 * time.Minute
)

// loginAttempt is what a sign-in with that login from that address counts
// against. Logins are folded as the store finds them (ASCII case), so "ADA"
// and "ada" are one login; keys are hashes, so the table holds neither.
func (s *Server) loginAttempt(login, addr string) plumb.LoginAttempt {
	login = foldLogin(login)
	limit := func(kind string, free int, parts ...string) plumb.LoginLimit {
		sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
		return plumb.LoginLimit{Key: kind + ":" + base64.RawURLEncoding.EncodeToString(sum[:16]), Free: free,
			Base: loginDelayBase, Max: loginDelayMax}
	}
	n := s.cfg.LoginAttempts
	return plumb.LoginAttempt{
		Pair:   limit("login+addr", n, login, addr),
		Wide:   []plumb.LoginLimit{limit("login", n*loginWideFactor, login), limit("addr", n*addressWideFactor, addr)},
		Known:  loginKnown,
		Forget: loginForget,
	}
}

func foldLogin(login string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, strings.TrimSpace(login))
}

// clientAddr is the address a sign-in attempt counts against, by the API's
// rule (docs/api.md): the connection's peer, or with --trust-host the last
// X-Forwarded-For entry (the one the proxy added). An IPv6 address counts as
// its /64, which one client usually holds whole.
func (s *Server) clientAddr(r *http.Request) string {
	a := ""
	if s.cfg.TrustHost {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			a = strings.TrimSpace(last)
		}
	}
	if a == "" {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		a = host
	}
	ip, err := netip.ParseAddr(a)
	if err != nil {
		return a
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// pruneLoginThrottle deletes forgotten counters, at most every ten minutes
// per server, after a sign-in attempt.
func (s *Server) pruneLoginThrottle(r *http.Request) {
	now := s.now()
	s.pruneMu.Lock()
	due := now.Sub(s.pruned) >= pruneEvery
	if due {
		s.pruned = now
	}
	s.pruneMu.Unlock()
	if !due {
		return
	}
	if _, err := s.store.PruneLoginThrottle(r.Context(), loginForget, loginKnown); err != nil {
		s.log.Warn("prune sign-in counters", "error", err)
	}
}

// waitText says a wait in words: "1 second", "40 seconds", "3 minutes".
func waitText(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	switch {
	case secs <= 1:
		return "1 second"
	case secs < 120:
		return fmt.Sprintf("%d seconds", secs)
	}
	return fmt.Sprintf("%d minutes", (secs+59)/60)
}
