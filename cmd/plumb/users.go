package main

import (
	"context"
	"fmt"
	"io"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// userProfileFlags are the profile flags of plumb user create and update,
// which GET /user answers. A flag not given leaves its field as it is; an
// empty value clears it.
type userProfileFlags struct {
	Email       *string `name:"email" help:"The user's email address (GET /user answers it)."`
	AvatarURL   *string `name:"avatar-url" help:"URL of the user's picture (absolute http or https)."`
	ProviderURL *string `name:"provider-url" help:"URL of the user's profile on the code host (absolute http or https)."`
}

func (f userProfileFlags) profile(name *string) plumb.UserProfile {
	return plumb.UserProfile{Name: name, Email: f.Email, AvatarURL: f.AvatarURL, ProviderURL: f.ProviderURL}
}

type userUpdateCmd struct {
	dbCmd
	Login string  `arg:"" name:"login" help:"The user's login or id."`
	Name  *string `name:"name" help:"The user's display name."`
	userProfileFlags
}

func (userUpdateCmd) Help() string {
	return `Changes only the fields given; an empty value clears a field.

Examples:

    plumb user update alice --email alice@example.com --provider-url https://github.com/alice
    plumb user update alice --avatar-url ''`
}

func (c *userUpdateCmd) Run(e *runEnv) error {
	return c.withDB(e, func(ctx context.Context, db *sqlstore.DB) error {
		return userUpdate(ctx, db, c.Login, c.profile(c.Name), e.stdout)
	})
}

// userUpdate changes the profile fields given (plumb user update).
func userUpdate(ctx context.Context, db *sqlstore.DB, login string, p plumb.UserProfile, stdout io.Writer) error {
	if p == (plumb.UserProfile{}) {
		return usageError{"plumb user update needs at least one of --name, --email, --avatar-url, --provider-url"}
	}
	u, err := db.UpdateUser(ctx, login, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "updated user %s (%s): name %q, email %q, avatar URL %q, provider URL %q\n",
		u.Login, u.ID, u.Name, u.Email, u.AvatarURL, u.ProviderURL)
	return nil
}
