{if $x}
{$y}
{/if}
