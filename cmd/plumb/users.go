package main

import (
	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/admin"
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
	loginArg
	Name *string `name:"name" help:"The user's display name."`
	userProfileFlags
}

func (c *userUpdateCmd) Run(e *runEnv, a *admin.Admin) error {
	return a.UserUpdate(e.ctx, c.Login, c.profile(c.Name))
}
