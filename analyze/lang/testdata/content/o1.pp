class foo {
  package { "x": ensure => present }
}
