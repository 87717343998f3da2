defmodule Greeter do
  @moduledoc """
  A module doc: comment lines for cloc.
  """

  # a line comment
  @doc ~S"""
  Says hello.
  """
  def hello(name), do: "Hello, " <> name
end
